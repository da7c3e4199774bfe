-- MDF-e: the cargo insurance (seg: who is responsible, the insurer, the
-- policy and its averbações), the CIOT of the trip and who generated it, and
-- the contract of a contractor with continued services (infContrato).
ALTER TABLE mdfe
    ADD COLUMN mdfe_ciot          text CHECK (mdfe_ciot ~ '^[0-9]{12}$'),
    ADD COLUMN mdfe_ciot_cpf_cnpj text CHECK (mdfe_ciot_cpf_cnpj ~ '^([0-9]{11}|[0-9]{14})$');

ALTER TABLE mdfe_contratantes
    ADD COLUMN mdco_nro_contrato text,
    ADD COLUMN mdco_vlr_contrato numeric(15, 2) CHECK (mdco_vlr_contrato > 0),
    ADD CONSTRAINT mdfe_contratantes_contrato_check
        CHECK ((mdco_nro_contrato IS NULL) = (mdco_vlr_contrato IS NULL));

CREATE TABLE mdfe_seguros (
    client_id             bigint NOT NULL,
    mseg_emp_id           bigint NOT NULL,
    mseg_mdfe_id          bigint NOT NULL,
    mseg_id               bigint NOT NULL,
    mseg_resp             integer NOT NULL DEFAULT 1 CHECK (mseg_resp IN (1, 2)),
    mseg_resp_cpf_cnpj    text,
    mseg_seguradora       text NOT NULL,
    mseg_seguradora_cnpj  text NOT NULL,
    mseg_apolice          text,
    mseg_averbacoes       text,
    PRIMARY KEY (client_id, mseg_emp_id, mseg_mdfe_id, mseg_id),
    FOREIGN KEY (client_id, mseg_emp_id, mseg_mdfe_id) REFERENCES mdfe (client_id, mdfe_emp_id, mdfe_id) ON DELETE CASCADE
);
ALTER TABLE mdfe_seguros ENABLE ROW LEVEL SECURITY;
ALTER TABLE mdfe_seguros FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant ON mdfe_seguros USING (client_id = erp_current_client()) WITH CHECK (client_id = erp_current_client());
