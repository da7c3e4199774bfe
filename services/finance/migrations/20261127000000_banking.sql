-- Banking: collection settings of the bank accounts, bank slips (boletos) with
-- their remittance and return files, transfers between accounts, daily cash
-- closings, OFX statement lines and their reconciliation, and the accounting
-- export's configuration.
-- Runs with search_path = finance. Tenant tables: client_id first in the key, RLS
-- forced on client_id = erp_current_client().

-- Collection settings: the CNAB layout the bank uses for this account, Banco do
-- Brasil's wallet variation, Santander's IOS or Sicoob's modality, and the
-- sequences of 'nosso número' and of remittance files (never reused: taken under
-- the account's row lock).
ALTER TABLE banco ADD COLUMN bco_layout_cnab text CHECK (bco_layout_cnab IN ('240', '400'));
ALTER TABLE banco ADD COLUMN bco_variacao_carteira text;
ALTER TABLE banco ADD COLUMN bco_modalidade text;
ALTER TABLE banco ADD COLUMN bco_prox_nosso_numero bigint NOT NULL DEFAULT 1 CHECK (bco_prox_nosso_numero >= 1);
ALTER TABLE banco ADD COLUMN bco_prox_remessa bigint NOT NULL DEFAULT 1 CHECK (bco_prox_remessa >= 1);

-- The payer's address on a slip and in the remittance.
ALTER TABLE clientes ADD COLUMN endereco text;
ALTER TABLE clientes ADD COLUMN numero text;
ALTER TABLE clientes ADD COLUMN bairro text;
ALTER TABLE clientes ADD COLUMN cep text;

-- Movements of a transfer between accounts (two movements, one transaction, each
-- naming the other) and of a statement line turned into a movement.
ALTER TABLE movimentacaobancaria DROP CONSTRAINT movimentacaobancaria_mbca_origem_check;
ALTER TABLE movimentacaobancaria ADD CONSTRAINT movimentacaobancaria_mbca_origem_check
    CHECK (mbca_origem IN ('MANUAL', 'BAIXA', 'ESTORNO', 'TRANSFERENCIA', 'CONCILIACAO'));
ALTER TABLE movimentacaobancaria ADD COLUMN mbca_transf_id bigint;
CREATE INDEX movimentacaobancaria_data ON movimentacaobancaria (client_id, mbca_emp_id, mbca_dta_mov);

-- Remittance files: one per generation, numbered per account (NSA).
CREATE TABLE remessas (
    client_id      bigint NOT NULL,
    rem_emp_id     bigint NOT NULL,
    rem_id         bigint NOT NULL,
    rem_bco_id     bigint NOT NULL,
    rem_sequencia  bigint NOT NULL,
    rem_leiaute    text NOT NULL,
    rem_nome       text NOT NULL,
    rem_arquivo    text NOT NULL,
    rem_qtd        integer NOT NULL,
    rem_valor      numeric(15,2) NOT NULL,
    rem_usr_id     bigint,
    rem_dta_cad    timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (client_id, rem_emp_id, rem_id),
    CONSTRAINT remessas_sequencia_key UNIQUE (client_id, rem_emp_id, rem_bco_id, rem_sequencia),
    CONSTRAINT remessas_banco_fkey FOREIGN KEY (client_id, rem_emp_id, rem_bco_id)
        REFERENCES banco (client_id, bco_emp_id, bco_id)
);

-- Bank slips: G gerado, E enviado em remessa, R registrado, X recusado, P pago,
-- B baixado. A receivable has at most one slip in collection (G, E, R).
CREATE TABLE boletos (
    client_id            bigint NOT NULL,
    bol_emp_id           bigint NOT NULL,
    bol_id               bigint NOT NULL,
    bol_bco_id           bigint NOT NULL,
    bol_crcb_id          bigint NOT NULL,
    bol_cli_id           bigint,
    bol_cli_nome         text,
    bol_sequencia        bigint NOT NULL,
    bol_nosso_numero     text NOT NULL,
    bol_documento        text,
    bol_dta_emis         date NOT NULL,
    bol_dta_vcto         date NOT NULL,
    bol_valor            numeric(15,2) NOT NULL CHECK (bol_valor > 0),
    bol_codigo_barras    text NOT NULL CHECK (bol_codigo_barras ~ '^[0-9]{44}$'),
    bol_linha_digitavel  text NOT NULL CHECK (bol_linha_digitavel ~ '^[0-9]{47}$'),
    bol_pix_copia_cola   text,
    bol_situacao         char(1) NOT NULL DEFAULT 'G' CHECK (bol_situacao IN ('G', 'E', 'R', 'X', 'P', 'B')),
    -- The bank's last word on the slip ('02 - Entrada confirmada').
    bol_ocorrencia       text,
    -- A command waiting for the next remittance: 02 write-off, 06 new due date.
    bol_instrucao        text CHECK (bol_instrucao IN ('02', '06')),
    bol_rem_id           bigint,
    bol_vlr_pago         numeric(15,2),
    bol_dta_pag          date,
    bol_baix_id          bigint,
    bol_usr_id           bigint,
    bol_dta_cad          timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (client_id, bol_emp_id, bol_id),
    CONSTRAINT boletos_nosso_numero_key UNIQUE (client_id, bol_emp_id, bol_bco_id, bol_sequencia),
    CONSTRAINT boletos_banco_fkey FOREIGN KEY (client_id, bol_emp_id, bol_bco_id)
        REFERENCES banco (client_id, bco_emp_id, bco_id),
    CONSTRAINT boletos_titulo_fkey FOREIGN KEY (client_id, bol_emp_id, bol_crcb_id)
        REFERENCES contasreceber (client_id, tit_emp_id, tit_id)
);
CREATE UNIQUE INDEX boletos_em_cobranca ON boletos (client_id, bol_emp_id, bol_crcb_id)
    WHERE bol_situacao IN ('G', 'E', 'R');
CREATE INDEX boletos_emissao ON boletos (client_id, bol_emp_id, bol_bco_id, bol_dta_emis);
CREATE INDEX boletos_cli_nome_trgm ON boletos USING gin (bol_cli_nome gin_trgm_ops);

-- Return files processed, and every occurrence taken from them: an occurrence
-- (account, nosso número, code, date) is applied once, however often the file
-- comes back, so a return file processed twice settles nothing twice.
CREATE TABLE retornos (
    client_id      bigint NOT NULL,
    ret_emp_id     bigint NOT NULL,
    ret_id         bigint NOT NULL,
    ret_bco_id     bigint NOT NULL,
    ret_nome       text NOT NULL,
    ret_hash       text NOT NULL,
    ret_leiaute    text NOT NULL,
    ret_resultado  jsonb NOT NULL,
    ret_usr_id     bigint,
    ret_dta_cad    timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (client_id, ret_emp_id, ret_id),
    CONSTRAINT retornos_arquivo_key UNIQUE (client_id, ret_emp_id, ret_bco_id, ret_hash)
);

CREATE TABLE boletoocorrencias (
    client_id      bigint NOT NULL,
    boco_emp_id    bigint NOT NULL,
    boco_bco_id    bigint NOT NULL,
    boco_nosso_numero text NOT NULL,
    boco_codigo    text NOT NULL,
    boco_data      date NOT NULL,
    boco_bol_id    bigint,
    boco_ret_id    bigint NOT NULL,
    boco_descricao text NOT NULL,
    boco_motivos   text,
    boco_vlr_pago  numeric(15,2) NOT NULL DEFAULT 0,
    boco_juros     numeric(15,2) NOT NULL DEFAULT 0,
    boco_tarifa    numeric(15,2) NOT NULL DEFAULT 0,
    boco_resultado text NOT NULL,
    PRIMARY KEY (client_id, boco_emp_id, boco_bco_id, boco_nosso_numero, boco_codigo, boco_data)
);
CREATE INDEX boletoocorrencias_boleto ON boletoocorrencias (client_id, boco_emp_id, boco_bol_id);

-- Daily cash closings: one row per company and closed day; movements dated on or
-- before a closed day are refused until it is reopened.
CREATE TABLE movdiario (
    client_id           bigint NOT NULL,
    movd_emp_id         bigint NOT NULL,
    movd_id             bigint NOT NULL,
    movd_dta_mov        date NOT NULL,
    movd_saldo_inicial  numeric(15,2) NOT NULL,
    movd_entradas       numeric(15,2) NOT NULL,
    movd_saidas         numeric(15,2) NOT NULL,
    movd_saldo_final    numeric(15,2) NOT NULL,
    movd_usr_id         bigint,
    movd_dta_cad        timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (client_id, movd_emp_id, movd_id),
    CONSTRAINT movdiario_dia_key UNIQUE (client_id, movd_emp_id, movd_dta_mov)
);

-- Statement lines imported from OFX files (CONB_*): C credit, D debit; P pending,
-- C reconciled. A line is imported once per account (FITID, or a digest of date,
-- amount and memo when the bank sends none).
CREATE TABLE conciliacaobancaria (
    client_id        bigint NOT NULL,
    conb_emp_id      bigint NOT NULL,
    conb_id          bigint NOT NULL,
    conb_bco_id      bigint NOT NULL,
    conb_fitid       text NOT NULL,
    conb_dta         date NOT NULL,
    conb_tipo        char(1) NOT NULL CHECK (conb_tipo IN ('C', 'D')),
    conb_valor       numeric(15,2) NOT NULL CHECK (conb_valor > 0),
    conb_historico   text NOT NULL DEFAULT '',
    conb_documento   text,
    conb_situacao    char(1) NOT NULL DEFAULT 'P' CHECK (conb_situacao IN ('P', 'C')),
    conb_importacao  bigint,
    conb_usr_id      bigint,
    conb_dta_cad     timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (client_id, conb_emp_id, conb_id),
    CONSTRAINT conciliacaobancaria_fitid_key UNIQUE (client_id, conb_emp_id, conb_bco_id, conb_fitid),
    CONSTRAINT conciliacaobancaria_banco_fkey FOREIGN KEY (client_id, conb_emp_id, conb_bco_id)
        REFERENCES banco (client_id, bco_emp_id, bco_id)
);
CREATE INDEX conciliacaobancaria_data ON conciliacaobancaria (client_id, conb_emp_id, conb_bco_id, conb_dta);

-- Which movements a statement line was matched with (one line, many movements:
-- a deposit of several slips); a movement is matched to one line at most.
CREATE TABLE conciliacaomovimentos (
    client_id    bigint NOT NULL,
    cmov_emp_id  bigint NOT NULL,
    cmov_conb_id bigint NOT NULL,
    cmov_mbca_id bigint NOT NULL,
    PRIMARY KEY (client_id, cmov_emp_id, cmov_mbca_id),
    CONSTRAINT conciliacaomovimentos_linha_fkey FOREIGN KEY (client_id, cmov_emp_id, cmov_conb_id)
        REFERENCES conciliacaobancaria (client_id, conb_emp_id, conb_id) ON DELETE CASCADE,
    CONSTRAINT conciliacaomovimentos_movimento_fkey FOREIGN KEY (client_id, cmov_emp_id, cmov_mbca_id)
        REFERENCES movimentacaobancaria (client_id, mbca_emp_id, mbca_id)
);
CREATE INDEX conciliacaomovimentos_linha ON conciliacaomovimentos (client_id, cmov_emp_id, cmov_conb_id);

-- The statements of the OFX files imported: the bank's closing balance.
CREATE TABLE extratos (
    client_id       bigint NOT NULL,
    ext_emp_id      bigint NOT NULL,
    ext_id          bigint NOT NULL,
    ext_bco_id      bigint NOT NULL,
    ext_conta       text NOT NULL,
    ext_inicio      date,
    ext_fim         date,
    ext_saldo       numeric(15,2),
    ext_dta_saldo   date,
    ext_importados  integer NOT NULL,
    ext_ignorados   integer NOT NULL,
    ext_usr_id      bigint,
    ext_dta_cad     timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (client_id, ext_emp_id, ext_id)
);

-- The accounting export's configuration, one row per company (INTD_*).
CREATE TABLE integracaodominio (
    client_id                   bigint NOT NULL,
    intd_emp_id                 bigint NOT NULL,
    intd_id                     bigint NOT NULL,
    intd_cod_empresa            text NOT NULL,
    intd_conta_clientes         text NOT NULL,
    intd_conta_fornecedores     text NOT NULL,
    intd_conta_caixa            text NOT NULL,
    intd_conta_receita          text NOT NULL,
    intd_conta_juros            text,
    intd_conta_descontos        text,
    intd_historico_venda        text,
    intd_historico_recebimento  text,
    intd_historico_pagamento    text,
    PRIMARY KEY (client_id, intd_emp_id, intd_id),
    CONSTRAINT integracaodominio_empresa_key UNIQUE (client_id, intd_emp_id)
);

DO $$
DECLARE t text;
BEGIN
    FOREACH t IN ARRAY ARRAY['remessas', 'boletos', 'retornos', 'boletoocorrencias', 'movdiario',
                             'conciliacaobancaria', 'conciliacaomovimentos', 'extratos',
                             'integracaodominio'] LOOP
        EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
        EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
        EXECUTE format('CREATE POLICY tenant ON %I USING (client_id = erp_current_client()) WITH CHECK (client_id = erp_current_client())', t);
    END LOOP;
END $$;
