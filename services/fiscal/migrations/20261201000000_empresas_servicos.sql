-- Fiscal services settings of a company (register `empresasservicos`): one row per
-- company with the environment, tax regime and series of each document type, the
-- NFC-e CSC, the NFS-e city hall access, the NF-e distribution, and the A1
-- certificate. Runs with search_path = fiscal; RLS forced on client_id.
--
-- Secrets are sealed by the service (AES-256-GCM, key ERP_FISCAL_KEY) before they
-- get here: emps_nfce_csc, emps_nfse_senha and emps_nfse_token hold base64 of the
-- sealed value; emps_cert_pfx and emps_cert_senha the sealed bytes. The two cert
-- columns are not declared fields of the register: no generic call reads them.

CREATE TABLE empresas_servicos (
    client_id               bigint NOT NULL,
    emps_emp_id             bigint NOT NULL,
    emps_usr_id             bigint,
    -- The company's CPF/CNPJ (unmasked) as the provider knows it.
    emps_cpf_cnpj           text,

    emps_nfe_ambiente       integer NOT NULL DEFAULT 2 CHECK (emps_nfe_ambiente IN (1, 2)),
    emps_nfe_regime         integer CHECK (emps_nfe_regime BETWEEN 1 AND 4),
    emps_nfe_serie          integer CHECK (emps_nfe_serie BETWEEN 0 AND 999),
    emps_nfce_ambiente      integer NOT NULL DEFAULT 2 CHECK (emps_nfce_ambiente IN (1, 2)),
    emps_nfce_regime        integer CHECK (emps_nfce_regime BETWEEN 1 AND 4),
    emps_nfce_serie         integer CHECK (emps_nfce_serie BETWEEN 0 AND 999),
    emps_nfce_idcsc         integer CHECK (emps_nfce_idcsc BETWEEN 1 AND 999999),
    emps_nfce_csc           text,
    emps_nfse_ambiente      integer NOT NULL DEFAULT 2 CHECK (emps_nfse_ambiente IN (1, 2)),
    emps_nfse_regime        integer CHECK (emps_nfse_regime BETWEEN 1 AND 4),
    emps_nfse_serie         text,
    emps_nfse_lote          bigint CHECK (emps_nfse_lote >= 1),
    emps_nfse_nr_rps        bigint CHECK (emps_nfse_nr_rps >= 1),
    emps_nfse_login         text,
    emps_nfse_senha         text,
    emps_nfse_token         text,
    emps_nfse_inc_fiscal    boolean NOT NULL DEFAULT false,
    emps_nfse_opt_simples   integer CHECK (emps_nfse_opt_simples BETWEEN 1 AND 3),
    emps_nfse_reg_esp_trib  integer CHECK (emps_nfse_reg_esp_trib BETWEEN 0 AND 6),
    emps_mdfe_ambiente      integer NOT NULL DEFAULT 2 CHECK (emps_mdfe_ambiente IN (1, 2)),
    emps_mdfe_regime        integer CHECK (emps_mdfe_regime BETWEEN 1 AND 4),
    emps_mdfe_serie         integer CHECK (emps_mdfe_serie BETWEEN 0 AND 999),
    emps_cte_ambiente       integer NOT NULL DEFAULT 2 CHECK (emps_cte_ambiente IN (1, 2)),
    emps_cte_regime         integer CHECK (emps_cte_regime BETWEEN 1 AND 4),
    emps_cte_serie          integer CHECK (emps_cte_serie BETWEEN 0 AND 999),
    emps_cte_os_ambiente    integer NOT NULL DEFAULT 2 CHECK (emps_cte_os_ambiente IN (1, 2)),
    emps_cte_os_regime      integer CHECK (emps_cte_os_regime BETWEEN 1 AND 4),
    emps_cte_os_serie       integer CHECK (emps_cte_os_serie BETWEEN 0 AND 999),
    emps_dce_ambiente       integer NOT NULL DEFAULT 2 CHECK (emps_dce_ambiente IN (1, 2)),
    emps_dce_regime         integer CHECK (emps_dce_regime BETWEEN 1 AND 4),
    emps_dce_serie          integer CHECK (emps_dce_serie BETWEEN 0 AND 999),
    emps_nfcon_ambiente     integer NOT NULL DEFAULT 2 CHECK (emps_nfcon_ambiente IN (1, 2)),
    emps_nfcon_regime       integer CHECK (emps_nfcon_regime BETWEEN 1 AND 3),
    emps_dist_ambiente      integer NOT NULL DEFAULT 2 CHECK (emps_dist_ambiente IN (1, 2)),
    emps_dist_ciencia_aut   boolean NOT NULL DEFAULT false,
    emps_dist_automatica    boolean NOT NULL DEFAULT false,

    -- The A1 certificate: what it says of itself, and the sealed file and password.
    emps_certificado        text,
    emps_cert_titular       text,
    emps_cert_cpf_cnpj      text,
    emps_cert_emissor       text,
    emps_cert_serie         text,
    -- Validity dates in Brasília time (UTC-3, no daylight saving since 2019).
    emps_cert_validade_ini  date,
    emps_cert_validade      date,
    emps_cert_vencido       boolean,
    emps_cert_dta_envio     timestamptz,
    emps_cert_nuvemfiscal   boolean NOT NULL DEFAULT false,
    emps_cert_pfx           bytea,
    emps_cert_senha         bytea,

    PRIMARY KEY (client_id, emps_emp_id),
    CONSTRAINT empresas_servicos_cert_check CHECK ((emps_cert_pfx IS NULL) = (emps_cert_senha IS NULL))
);

-- The provider account is shared by every client: a CPF/CNPJ belongs to one
-- company settings row, so no tenant acts on another's company at the provider.
CREATE UNIQUE INDEX empresas_servicos_cpf_cnpj_key ON empresas_servicos (emps_cpf_cnpj);

ALTER TABLE empresas_servicos ENABLE ROW LEVEL SECURITY;
ALTER TABLE empresas_servicos FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant ON empresas_servicos
    USING (client_id = erp_current_client())
    WITH CHECK (client_id = erp_current_client());
