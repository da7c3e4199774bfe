-- Receivables and payables: titles, their settlements (baixas) and reversals, the
-- bank movements every settlement writes, the financial parameters of each company
-- and the origin documents (invoiced orders, finalized purchases) titles come from.
-- Runs with search_path = finance. Tenant tables: client_id first in the key, RLS
-- forced on client_id = erp_current_client().

-- What the bank movements add to an account: kept by every movement write under
-- the account's row lock, so the balance is always the initial balance plus the
-- sum of the account's movements.
ALTER TABLE banco ADD COLUMN bco_movimentos numeric(15,2) NOT NULL DEFAULT 0;
ALTER TABLE banco ADD COLUMN bco_saldo numeric(15,2) GENERATED ALWAYS AS (bco_saldo_inicial + bco_movimentos) STORED;

-- Titles. Receivables (contasreceber, CRCB_*) and payables (contaspagar, CMPD_*)
-- have the same columns; the registers map the legacy names onto them.
-- tit_valor + tit_acrescimo is what the title is worth; tit_pago is how much of it
-- settlements took (discounts included); juros, multa and desconto add up what the
-- settlements charged and granted. Balance and status are derived, never written.
CREATE TABLE contasreceber (
    client_id         bigint NOT NULL,
    tit_emp_id        bigint NOT NULL,
    tit_id            bigint NOT NULL,
    -- Customer (contasreceber) or supplier (contaspagar) id and the name it had.
    tit_pessoa_id     bigint NOT NULL,
    tit_pessoa_nome   text,
    tit_documento     text,
    tit_origem        text NOT NULL DEFAULT 'MANUAL'
                      CHECK (tit_origem IN ('MANUAL', 'PEDIDO', 'COMPRA', 'ORDEMSERVICO')),
    -- The origin document: order id and serie, purchase id ('' serie).
    tit_origem_id     bigint,
    tit_origem_serie  text,
    tit_parcela       integer NOT NULL DEFAULT 1 CHECK (tit_parcela >= 1),
    tit_parcelas      integer NOT NULL DEFAULT 1 CHECK (tit_parcelas >= 1),
    tit_dta_emis      date NOT NULL,
    tit_dta_vcto      date NOT NULL,
    tit_valor         numeric(15,2) NOT NULL CHECK (tit_valor > 0),
    tit_acrescimo     numeric(15,2) NOT NULL DEFAULT 0 CHECK (tit_acrescimo >= 0),
    tit_juros         numeric(15,2) NOT NULL DEFAULT 0 CHECK (tit_juros >= 0),
    tit_multa         numeric(15,2) NOT NULL DEFAULT 0 CHECK (tit_multa >= 0),
    tit_desconto      numeric(15,2) NOT NULL DEFAULT 0 CHECK (tit_desconto >= 0),
    tit_pago          numeric(15,2) NOT NULL DEFAULT 0,
    tit_saldo         numeric(15,2) GENERATED ALWAYS AS (tit_valor + tit_acrescimo - tit_pago) STORED,
    -- Date of the latest settlement still standing.
    tit_dta_pag       date,
    tit_cancelado     boolean NOT NULL DEFAULT false,
    -- A aberto, P parcialmente pago, Q pago (quitado), C cancelado.
    tit_situacao      text GENERATED ALWAYS AS (
                          CASE WHEN tit_cancelado THEN 'C'
                               WHEN tit_pago >= tit_valor + tit_acrescimo THEN 'Q'
                               WHEN tit_pago > 0 THEN 'P'
                               ELSE 'A' END) STORED,
    tit_frmp_id       bigint,
    tit_bco_id        bigint,
    tit_hisp_id       bigint,
    tit_obs           text,
    tit_usr_id        bigint,
    tit_dta_cad       timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (client_id, tit_emp_id, tit_id),
    -- A settlement never takes more than the title is worth.
    CONSTRAINT contasreceber_pago_check CHECK (tit_pago >= 0 AND tit_pago <= tit_valor + tit_acrescimo),
    CONSTRAINT contasreceber_banco_fkey FOREIGN KEY (client_id, tit_emp_id, tit_bco_id)
        REFERENCES banco (client_id, bco_emp_id, bco_id),
    CONSTRAINT contasreceber_forma_fkey FOREIGN KEY (client_id, tit_frmp_id)
        REFERENCES formapagamento (client_id, frmp_id),
    CONSTRAINT contasreceber_centro_fkey FOREIGN KEY (client_id, tit_emp_id, tit_hisp_id)
        REFERENCES historicopadrao (client_id, hisp_emp_id, hisp_id)
);
CREATE INDEX contasreceber_pessoa ON contasreceber (client_id, tit_emp_id, tit_pessoa_id, tit_dta_vcto);
CREATE INDEX contasreceber_vencimento ON contasreceber (client_id, tit_emp_id, tit_dta_vcto)
    WHERE NOT tit_cancelado AND tit_pago < tit_valor + tit_acrescimo;
CREATE INDEX contasreceber_nome_trgm ON contasreceber USING gin (tit_pessoa_nome gin_trgm_ops);
CREATE INDEX contasreceber_documento_trgm ON contasreceber USING gin (tit_documento gin_trgm_ops);
-- One title per instalment of an origin document.
CREATE UNIQUE INDEX contasreceber_origem_key ON contasreceber
    (client_id, tit_emp_id, tit_origem, tit_origem_id, tit_origem_serie, tit_parcela)
    WHERE tit_origem <> 'MANUAL';

CREATE TABLE contaspagar (
    client_id         bigint NOT NULL,
    tit_emp_id        bigint NOT NULL,
    tit_id            bigint NOT NULL,
    tit_pessoa_id     bigint NOT NULL,
    tit_pessoa_nome   text,
    tit_documento     text,
    tit_origem        text NOT NULL DEFAULT 'MANUAL'
                      CHECK (tit_origem IN ('MANUAL', 'PEDIDO', 'COMPRA', 'ORDEMSERVICO')),
    tit_origem_id     bigint,
    tit_origem_serie  text,
    tit_parcela       integer NOT NULL DEFAULT 1 CHECK (tit_parcela >= 1),
    tit_parcelas      integer NOT NULL DEFAULT 1 CHECK (tit_parcelas >= 1),
    tit_dta_emis      date NOT NULL,
    tit_dta_vcto      date NOT NULL,
    tit_valor         numeric(15,2) NOT NULL CHECK (tit_valor > 0),
    tit_acrescimo     numeric(15,2) NOT NULL DEFAULT 0 CHECK (tit_acrescimo >= 0),
    tit_juros         numeric(15,2) NOT NULL DEFAULT 0 CHECK (tit_juros >= 0),
    tit_multa         numeric(15,2) NOT NULL DEFAULT 0 CHECK (tit_multa >= 0),
    tit_desconto      numeric(15,2) NOT NULL DEFAULT 0 CHECK (tit_desconto >= 0),
    tit_pago          numeric(15,2) NOT NULL DEFAULT 0,
    tit_saldo         numeric(15,2) GENERATED ALWAYS AS (tit_valor + tit_acrescimo - tit_pago) STORED,
    tit_dta_pag       date,
    tit_cancelado     boolean NOT NULL DEFAULT false,
    tit_situacao      text GENERATED ALWAYS AS (
                          CASE WHEN tit_cancelado THEN 'C'
                               WHEN tit_pago >= tit_valor + tit_acrescimo THEN 'Q'
                               WHEN tit_pago > 0 THEN 'P'
                               ELSE 'A' END) STORED,
    tit_frmp_id       bigint,
    tit_bco_id        bigint,
    tit_hisp_id       bigint,
    tit_obs           text,
    tit_usr_id        bigint,
    tit_dta_cad       timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (client_id, tit_emp_id, tit_id),
    CONSTRAINT contaspagar_pago_check CHECK (tit_pago >= 0 AND tit_pago <= tit_valor + tit_acrescimo),
    CONSTRAINT contaspagar_banco_fkey FOREIGN KEY (client_id, tit_emp_id, tit_bco_id)
        REFERENCES banco (client_id, bco_emp_id, bco_id),
    CONSTRAINT contaspagar_forma_fkey FOREIGN KEY (client_id, tit_frmp_id)
        REFERENCES formapagamento (client_id, frmp_id),
    CONSTRAINT contaspagar_centro_fkey FOREIGN KEY (client_id, tit_emp_id, tit_hisp_id)
        REFERENCES historicopadrao (client_id, hisp_emp_id, hisp_id)
);
CREATE INDEX contaspagar_pessoa ON contaspagar (client_id, tit_emp_id, tit_pessoa_id, tit_dta_vcto);
CREATE INDEX contaspagar_vencimento ON contaspagar (client_id, tit_emp_id, tit_dta_vcto)
    WHERE NOT tit_cancelado AND tit_pago < tit_valor + tit_acrescimo;
CREATE INDEX contaspagar_nome_trgm ON contaspagar USING gin (tit_pessoa_nome gin_trgm_ops);
CREATE INDEX contaspagar_documento_trgm ON contaspagar USING gin (tit_documento gin_trgm_ops);
CREATE UNIQUE INDEX contaspagar_origem_key ON contaspagar
    (client_id, tit_emp_id, tit_origem, tit_origem_id, tit_origem_serie, tit_parcela)
    WHERE tit_origem <> 'MANUAL';

-- Settlements of titles: 'R' of a receivable, 'P' of a payable. baix_valor is the
-- part of the title it settled, baix_total what moved in the account
-- (valor + juros + multa - desconto). A reversed settlement stays, marked, beside
-- the movement that undid its own.
CREATE TABLE baixas (
    client_id         bigint NOT NULL,
    baix_emp_id       bigint NOT NULL,
    baix_id           bigint NOT NULL,
    baix_tipo         char(1) NOT NULL CHECK (baix_tipo IN ('R', 'P')),
    baix_tit_id       bigint NOT NULL,
    baix_dta          date NOT NULL,
    baix_valor        numeric(15,2) NOT NULL CHECK (baix_valor > 0),
    baix_juros        numeric(15,2) NOT NULL DEFAULT 0 CHECK (baix_juros >= 0),
    baix_multa        numeric(15,2) NOT NULL DEFAULT 0 CHECK (baix_multa >= 0),
    baix_desconto     numeric(15,2) NOT NULL DEFAULT 0 CHECK (baix_desconto >= 0),
    baix_total        numeric(15,2) GENERATED ALWAYS AS (baix_valor + baix_juros + baix_multa - baix_desconto) STORED,
    baix_bco_id       bigint NOT NULL,
    baix_frmp_id      bigint,
    baix_obs          text,
    baix_usr_id       bigint,
    baix_dta_cad      timestamptz NOT NULL DEFAULT now(),
    baix_estornada    boolean NOT NULL DEFAULT false,
    baix_dta_estorno  timestamptz,
    baix_usr_estorno  bigint,
    PRIMARY KEY (client_id, baix_emp_id, baix_id),
    CONSTRAINT baixas_total_check CHECK (baix_desconto <= baix_valor + baix_juros + baix_multa),
    CONSTRAINT baixas_banco_fkey FOREIGN KEY (client_id, baix_emp_id, baix_bco_id)
        REFERENCES banco (client_id, bco_emp_id, bco_id),
    CONSTRAINT baixas_forma_fkey FOREIGN KEY (client_id, baix_frmp_id)
        REFERENCES formapagamento (client_id, frmp_id)
);
CREATE INDEX baixas_titulo ON baixas (client_id, baix_emp_id, baix_tipo, baix_tit_id);
CREATE INDEX baixas_data ON baixas (client_id, baix_emp_id, baix_tipo, baix_dta);

-- Bank movements (MBCA_*): 'C' credit, 'D' debit. Settlements write theirs
-- (origin BAIXA, a reversal ESTORNO), users write MANUAL ones.
CREATE TABLE movimentacaobancaria (
    client_id         bigint NOT NULL,
    mbca_emp_id       bigint NOT NULL,
    mbca_id           bigint NOT NULL,
    mbca_bco_id       bigint NOT NULL,
    mbca_dta_mov      date NOT NULL,
    mbca_tipo         char(1) NOT NULL CHECK (mbca_tipo IN ('C', 'D')),
    mbca_valor        numeric(15,2) NOT NULL CHECK (mbca_valor > 0),
    mbca_historico    text NOT NULL,
    mbca_documento    text,
    mbca_hisp_id      bigint,
    mbca_frmp_id      bigint,
    mbca_origem       text NOT NULL DEFAULT 'MANUAL' CHECK (mbca_origem IN ('MANUAL', 'BAIXA', 'ESTORNO')),
    mbca_baix_id      bigint,
    mbca_usr_id       bigint,
    mbca_dta_cad      timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (client_id, mbca_emp_id, mbca_id),
    CONSTRAINT movimentacaobancaria_banco_fkey FOREIGN KEY (client_id, mbca_emp_id, mbca_bco_id)
        REFERENCES banco (client_id, bco_emp_id, bco_id),
    CONSTRAINT movimentacaobancaria_centro_fkey FOREIGN KEY (client_id, mbca_emp_id, mbca_hisp_id)
        REFERENCES historicopadrao (client_id, hisp_emp_id, hisp_id),
    CONSTRAINT movimentacaobancaria_baixa_fkey FOREIGN KEY (client_id, mbca_emp_id, mbca_baix_id)
        REFERENCES baixas (client_id, baix_emp_id, baix_id)
);
CREATE INDEX movimentacaobancaria_banco ON movimentacaobancaria (client_id, mbca_emp_id, mbca_bco_id, mbca_dta_mov);
CREATE INDEX movimentacaobancaria_historico_trgm ON movimentacaobancaria USING gin (mbca_historico gin_trgm_ops);

-- Financial parameters, one row per company: late interest per day and fine (%)
-- with the days of grace before they are charged, and the defaults of titles and
-- settlements (accounts, payment method, cost centres, the condition of invoiced
-- orders).
CREATE TABLE parametrosfinanceiro (
    client_id              bigint NOT NULL,
    parf_emp_id            bigint NOT NULL,
    parf_id                bigint NOT NULL,
    parf_perc_juros_dia    numeric(7,4) NOT NULL DEFAULT 0 CHECK (parf_perc_juros_dia BETWEEN 0 AND 100),
    parf_perc_multa        numeric(7,4) NOT NULL DEFAULT 0 CHECK (parf_perc_multa BETWEEN 0 AND 100),
    parf_dias_carencia     integer NOT NULL DEFAULT 0 CHECK (parf_dias_carencia BETWEEN 0 AND 365),
    parf_bco_id_receber    bigint,
    parf_bco_id_pagar      bigint,
    parf_frmp_id           bigint,
    parf_hisp_id_receber   bigint,
    parf_hisp_id_pagar     bigint,
    parf_cndp_id           bigint,
    parf_cndv_id           bigint,
    PRIMARY KEY (client_id, parf_emp_id, parf_id),
    CONSTRAINT parametrosfinanceiro_empresa_key UNIQUE (client_id, parf_emp_id),
    CONSTRAINT parametrosfinanceiro_banco_receber_fkey FOREIGN KEY (client_id, parf_emp_id, parf_bco_id_receber)
        REFERENCES banco (client_id, bco_emp_id, bco_id),
    CONSTRAINT parametrosfinanceiro_banco_pagar_fkey FOREIGN KEY (client_id, parf_emp_id, parf_bco_id_pagar)
        REFERENCES banco (client_id, bco_emp_id, bco_id),
    CONSTRAINT parametrosfinanceiro_forma_fkey FOREIGN KEY (client_id, parf_frmp_id)
        REFERENCES formapagamento (client_id, frmp_id),
    CONSTRAINT parametrosfinanceiro_centro_receber_fkey FOREIGN KEY (client_id, parf_emp_id, parf_hisp_id_receber)
        REFERENCES historicopadrao (client_id, hisp_emp_id, hisp_id),
    CONSTRAINT parametrosfinanceiro_centro_pagar_fkey FOREIGN KEY (client_id, parf_emp_id, parf_hisp_id_pagar)
        REFERENCES historicopadrao (client_id, hisp_emp_id, hisp_id),
    CONSTRAINT parametrosfinanceiro_condicao_fkey FOREIGN KEY (client_id, parf_emp_id, parf_cndp_id)
        REFERENCES condicaopagamento (client_id, cndp_emp_id, cndp_id),
    CONSTRAINT parametrosfinanceiro_vencimento_fkey FOREIGN KEY (client_id, parf_emp_id, parf_cndv_id)
        REFERENCES condicaovencimento (client_id, cndv_emp_id, cndv_id)
);

-- What finance did with each origin document of another service: 'F' its titles
-- were created (an invoiced order, a finalized purchase), 'C' it was cancelled
-- (its open titles cancelled, or, when the cancellation came first, none made: a
-- finalization that arrives after its cancellation creates nothing). Either fact
-- may be applied first (separate consumers); this row, locked before any title,
-- orders them, and a second fact about the same document under another event id
-- changes nothing.
CREATE TABLE documentos (
    client_id       bigint NOT NULL,
    doc_emp_id      bigint NOT NULL,
    doc_origem      text NOT NULL CHECK (doc_origem IN ('PEDIDO', 'COMPRA', 'ORDEMSERVICO')),
    doc_id          bigint NOT NULL,
    doc_serie       text NOT NULL DEFAULT '',
    doc_situacao    char(1) NOT NULL CHECK (doc_situacao IN ('F', 'C')),
    doc_total       numeric(15,2) NOT NULL DEFAULT 0,
    doc_parcelas    integer NOT NULL DEFAULT 0,
    doc_criado      timestamptz NOT NULL DEFAULT now(),
    doc_cancelado   timestamptz,
    PRIMARY KEY (client_id, doc_emp_id, doc_origem, doc_id, doc_serie)
);

DO $$
DECLARE t text;
BEGIN
    FOREACH t IN ARRAY ARRAY['contasreceber', 'contaspagar', 'baixas', 'movimentacaobancaria',
                             'parametrosfinanceiro', 'documentos'] LOOP
        EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
        EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
        EXECUTE format('CREATE POLICY tenant ON %I USING (client_id = erp_current_client()) WITH CHECK (client_id = erp_current_client())', t);
    END LOOP;
END $$;
