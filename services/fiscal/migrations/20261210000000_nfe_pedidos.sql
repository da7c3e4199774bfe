-- The NF-e of billing orders. Runs with search_path = fiscal; RLS forced on
-- client_id in every table.
--
-- Copies kept from other services' facts (never read from their schemas):
-- identity's companies, catalog's customers and products, finance's payment
-- methods (RecordChanged), and the invoiced orders with their lines
-- (erp.orders.pedido.faturado). A removed register row stays, flagged.

CREATE TABLE empresas (
    client_id    bigint NOT NULL,
    emp_id       bigint NOT NULL,
    descricao    text,
    fantasia     text,
    cnpj         text,
    ie           text,
    im           text,
    cnae         text,
    regime       text,
    endereco     text,
    numero       text,
    complemento  text,
    bairro       text,
    cid_ibge     text,
    cidade       text,
    uf           text,
    cep          text,
    fone         text,
    email        text,
    excluido     boolean NOT NULL DEFAULT false,
    PRIMARY KEY (client_id, emp_id)
);

CREATE TABLE clientes (
    client_id        bigint NOT NULL,
    emp_id           bigint NOT NULL,
    cli_id           bigint NOT NULL,
    tipo_pessoa      text,
    descricao        text,
    cpf              text,
    cnpj             text,
    doc_estrangeiro  text,
    ind_ie           bigint,
    ie               text,
    im               text,
    endereco         text,
    numero           text,
    complemento      text,
    bairro           text,
    cid_ibge         text,
    cidade           text,
    uf               text,
    cep              text,
    fone             text,
    email            text,
    email_nfe        text,
    excluido         boolean NOT NULL DEFAULT false,
    PRIMARY KEY (client_id, emp_id, cli_id)
);

CREATE TABLE produtos (
    client_id   bigint NOT NULL,
    emp_id      bigint NOT NULL,
    prod_id     bigint NOT NULL,
    descricao   text,
    ncm         text,
    cest        text,
    unidade     text,
    origem      bigint,
    gtin        text,
    excluido    boolean NOT NULL DEFAULT false,
    PRIMARY KEY (client_id, emp_id, prod_id)
);

-- Payment methods are the client's: kept under company 0.
CREATE TABLE formaspagamento (
    client_id   bigint NOT NULL,
    emp_id      bigint NOT NULL,
    frmp_id     bigint NOT NULL,
    descricao   text,
    tipo        text,
    excluido    boolean NOT NULL DEFAULT false,
    PRIMARY KEY (client_id, emp_id, frmp_id)
);

-- The invoiced orders to be issued, once per order.
CREATE TABLE pedidos (
    client_id    bigint NOT NULL,
    emp_id       bigint NOT NULL,
    pedf_id      bigint NOT NULL,
    serie        text NOT NULL,
    cli_id       bigint NOT NULL,
    cli_nome     text,
    dta_emissao  date NOT NULL,
    total        numeric(15,2) NOT NULL,
    tot_prod     numeric(15,2) NOT NULL,
    tot_serv     numeric(15,2) NOT NULL,
    frmp_id      bigint,
    cndp_id      bigint,
    usr_id       bigint,
    dta_recebido timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (client_id, emp_id, pedf_id, serie)
);

CREATE TABLE pedidos_itens (
    client_id      bigint NOT NULL,
    emp_id         bigint NOT NULL,
    pedf_id        bigint NOT NULL,
    serie          text NOT NULL,
    tipo           text NOT NULL CHECK (tipo IN ('P', 'S')),
    item           bigint NOT NULL,
    item_id        bigint NOT NULL,
    qtde           numeric(15,4) NOT NULL,
    vlr_unit       numeric(21,10) NOT NULL,
    vlr_desconto   numeric(15,2) NOT NULL DEFAULT 0,
    vlr_acrescimo  numeric(15,2) NOT NULL DEFAULT 0,
    vlr_frete      numeric(15,2) NOT NULL DEFAULT 0,
    vlr_total      numeric(15,2) NOT NULL,
    PRIMARY KEY (client_id, emp_id, pedf_id, serie, tipo, item),
    FOREIGN KEY (client_id, emp_id, pedf_id, serie) REFERENCES pedidos (client_id, emp_id, pedf_id, serie)
);

-- The NF-e of an order (register `pedidofatxml`): one per order, with the number
-- it took from the numbering (kept through rejections and re-sent with it), the
-- provider's id (stored before polling), the SEFAZ's answer, the XML and the
-- DANFE, and its cancel and correction letters.
CREATE TABLE pedidofatxml (
    client_id                bigint NOT NULL,
    pexm_id                  bigint NOT NULL,
    pexm_emp_id              bigint NOT NULL,
    pexm_pedf_id             bigint NOT NULL,
    pexm_serie               text NOT NULL,
    pexm_usr_id              bigint,
    pexm_dta_cad             timestamptz NOT NULL DEFAULT now(),
    pexm_modelo              text NOT NULL DEFAULT '55',
    pexm_nfe_serie           integer NOT NULL,
    pexm_numero              bigint NOT NULL,
    pexm_ambiente            integer NOT NULL CHECK (pexm_ambiente IN (1, 2)),
    -- Our identifier at the provider, one per attempt (a rejected NF-e is sent
    -- again with its number under the next attempt's): unique across clients, as
    -- the provider account is shared, so a lost answer is found again.
    pexm_tentativa           integer NOT NULL DEFAULT 1,
    pexm_referencia          text NOT NULL,
    pexm_nuvem_id            text,
    pexm_situacao            text NOT NULL DEFAULT 'enviando' CHECK (pexm_situacao IN
        ('enviando', 'pendente', 'autorizado', 'rejeitado', 'denegado', 'cancelado', 'erro')),
    pexm_chave               text,
    pexm_protocolo           text,
    pexm_cstat               integer,
    pexm_motivo              text,
    pexm_explicacao          text,
    pexm_valor               numeric(15,2),
    pexm_dta_emissao         timestamptz,
    pexm_dta_autorizacao     timestamptz,
    pexm_xml                 bytea,
    pexm_pdf                 bytea,
    pexm_cancel_justificativa text,
    pexm_cancel_protocolo    text,
    pexm_dta_cancelamento    timestamptz,
    pexm_cce_seq             integer NOT NULL DEFAULT 0,
    pexm_cce_correcao        text,
    pexm_cce_protocolo       text,
    pexm_dta_cce             timestamptz,
    PRIMARY KEY (client_id, pexm_emp_id, pexm_id),
    CONSTRAINT pedidofatxml_pedido_key UNIQUE (client_id, pexm_emp_id, pexm_pedf_id, pexm_serie),
    CONSTRAINT pedidofatxml_numero_key UNIQUE (client_id, pexm_emp_id, pexm_modelo, pexm_nfe_serie, pexm_numero),
    CONSTRAINT pedidofatxml_referencia_key UNIQUE (pexm_referencia)
);
CREATE INDEX pedidofatxml_emissao ON pedidofatxml (client_id, pexm_emp_id, pexm_dta_emissao);

DO $$
DECLARE t text;
BEGIN
    FOREACH t IN ARRAY ARRAY['empresas', 'clientes', 'produtos', 'formaspagamento', 'pedidos',
                             'pedidos_itens', 'pedidofatxml'] LOOP
        EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
        EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
        EXECUTE format('CREATE POLICY tenant ON %I USING (client_id = erp_current_client()) WITH CHECK (client_id = erp_current_client())', t);
    END LOOP;
END $$;

-- Only an NF-e that never was (rejected, or refused before the SEFAZ) is removed,
-- whatever call removes it; its number goes back to the numbering when it was
-- the last one taken (else it is a gap to void).
CREATE FUNCTION pedidofatxml_exclusao() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF OLD.pexm_situacao NOT IN ('rejeitado', 'erro') THEN
        RAISE EXCEPTION 'NF-e % não pode ser excluída (situação %)', OLD.pexm_id, OLD.pexm_situacao
            USING ERRCODE = 'check_violation', CONSTRAINT = 'pedidofatxml_exclusao_check';
    END IF;
    UPDATE fiscal.numeracao SET num_proximo = OLD.pexm_numero
    WHERE client_id = OLD.client_id AND num_emp_id = OLD.pexm_emp_id AND num_modelo = OLD.pexm_modelo
      AND num_serie = OLD.pexm_nfe_serie AND num_proximo = OLD.pexm_numero + 1;
    RETURN OLD;
END $$;
CREATE TRIGGER pedidofatxml_exclusao BEFORE DELETE ON pedidofatxml
    FOR EACH ROW EXECUTE FUNCTION pedidofatxml_exclusao();
