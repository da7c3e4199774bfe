-- The NF-e manifest (register `manifestonfe`): the NF-e issued against the
-- company, fetched from the Ambiente Nacional by NSU through the Nuvem Fiscal
-- (distribuição) or uploaded as XML, with the recipient's manifestation
-- (ciência, confirmação, desconhecimento, operação não realizada), the whole
-- XML once it is available, and the supplier and purchase it became.
-- Runs with search_path = fiscal; RLS forced on client_id.

CREATE TABLE manifestonfe (
    client_id           bigint NOT NULL,
    man_emp_id          bigint NOT NULL,
    man_id              bigint NOT NULL,
    man_chave           text NOT NULL CHECK (man_chave ~ '^[0-9]{44}$'),
    man_numero          bigint NOT NULL,
    man_serie           integer NOT NULL,
    man_data            date,
    man_dta_cad         timestamptz NOT NULL DEFAULT now(),
    man_origem          text NOT NULL DEFAULT 'DISTRIBUICAO' CHECK (man_origem IN ('DISTRIBUICAO', 'UPLOAD')),
    man_nsu             bigint,
    man_emit_cnpj       text,
    man_emit_nome       text,
    man_emit_ie         text,
    man_valor           numeric(15,2),
    man_tipo_nfe        integer,
    man_protocolo       text,
    -- The last manifestation registered: its event code (210210 ciência,
    -- 210200 confirmação, 210220 desconhecimento, 210240 não realizada), or
    -- none yet.
    -- P pendente (sem manifestação), C ciência, F confirmada, D desconhecida,
    -- N operação não realizada: what the screen filters and colours by.
    man_situacao        text NOT NULL DEFAULT 'P' CHECK (man_situacao IN ('P', 'C', 'F', 'D', 'N')),
    man_manifestacao    text CHECK (man_manifestacao IN ('210200', '210210', '210220', '210240')),
    man_manif_protocolo text,
    man_manif_data      timestamptz,
    man_justificativa   text,
    man_completa        boolean NOT NULL DEFAULT false,
    man_doc_id          text,
    man_xml             bytea,
    man_for_id          bigint,
    man_comp_id         bigint,
    man_usr_id          bigint,
    PRIMARY KEY (client_id, man_emp_id, man_id),
    CONSTRAINT manifestonfe_chave_key UNIQUE (client_id, man_emp_id, man_chave)
);
CREATE INDEX manifestonfe_data ON manifestonfe (client_id, man_emp_id, man_data DESC);

-- Where the company's distribution stands: the last NSU read and the highest
-- there was, so the next request asks only for what is new.
CREATE TABLE manifestonfe_nsu (
    client_id     bigint NOT NULL,
    emp_id        bigint NOT NULL,
    ultimo_nsu    bigint NOT NULL DEFAULT 0,
    max_nsu       bigint NOT NULL DEFAULT 0,
    dta_consulta  timestamptz,
    PRIMARY KEY (client_id, emp_id)
);

DO $$
DECLARE t text;
BEGIN
    FOREACH t IN ARRAY ARRAY['manifestonfe', 'manifestonfe_nsu'] LOOP
        EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
        EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
        EXECUTE format('CREATE POLICY tenant ON %I USING (client_id = erp_current_client()) WITH CHECK (client_id = erp_current_client())', t);
    END LOOP;
END $$;
