-- Identity: clients (tenants), companies, users, programs and permissions.
-- Runs with search_path = identity. Tenant tables: client_id first in the key and
-- row-level security forced on client_id = erp_current_client().

-- Clients are looked up by tax id at login, before any tenant is known: no RLS,
-- and the application role may only read them.
CREATE TABLE clientes_conta (
    client_id  bigint PRIMARY KEY,
    cpfcnpj    text NOT NULL UNIQUE,
    nome       text NOT NULL,
    ativo      boolean NOT NULL DEFAULT true,
    criado_em  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE empresas (
    client_id          bigint NOT NULL,
    emp_id             bigint NOT NULL,
    emp_descricao      text NOT NULL,
    emp_fantasia       text,
    emp_cgc            text NOT NULL,
    emp_ie             text,
    emp_im             text,
    emp_regime         text NOT NULL DEFAULT 'NENHUM'
        CHECK (emp_regime IN ('NENHUM', 'MEI', 'SIMPLES NACIONAL', 'LUCRO PRESUMIDO', 'LUCRO REAL')),
    emp_cnae           text,
    emp_cep            text,
    emp_endereco       text,
    emp_numero         text,
    emp_complemento    text,
    emp_bairro         text,
    emp_cid_ibge       bigint,
    emp_cidade         text,
    emp_uf             text,
    emp_fone           text,
    emp_email          text,
    emp_img_logo       text,
    emp_img_logo_rel   text,
    emp_situacao       integer NOT NULL DEFAULT 1,
    emp_dta_cad        timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (client_id, emp_id),
    CONSTRAINT empresas_cgc_key UNIQUE (client_id, emp_cgc)
);
CREATE INDEX empresas_descricao_trgm ON empresas USING gin (emp_descricao gin_trgm_ops);

CREATE TABLE usuarios (
    client_id        bigint NOT NULL,
    usr_id           bigint NOT NULL,
    usr_usuario      text NOT NULL,
    usr_nome         text NOT NULL,
    usr_email        text,
    usr_fone         text,
    usr_senha_hash   text NOT NULL,
    usr_emp_id       bigint NOT NULL,
    -- Companies the user may work in (JSON array of EMP_ID).
    usr_empresas     jsonb NOT NULL DEFAULT '[]'::jsonb,
    usr_situacao     integer NOT NULL DEFAULT 1,
    usr_dta_cad      timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (client_id, usr_id),
    FOREIGN KEY (client_id, usr_emp_id) REFERENCES empresas (client_id, emp_id)
);
CREATE UNIQUE INDEX usuarios_login_key ON usuarios (client_id, lower(usr_usuario));

-- Programs are the screens of the product: the same for every client.
CREATE TABLE programas (
    prog_id         integer PRIMARY KEY,
    prog_nome       text NOT NULL UNIQUE,
    prog_descricao  text NOT NULL,
    prog_dir_web    text,
    prog_exe        text,
    prog_img_web    text,
    prog_nivel1     text NOT NULL,
    prog_nivel2     text,
    prog_nivel3     text NOT NULL,
    prog_ordem      integer NOT NULL
);

CREATE TABLE programas_usuario (
    client_id       bigint NOT NULL,
    prgu_usuario    bigint NOT NULL,
    prgu_prog_id    integer NOT NULL REFERENCES programas (prog_id),
    prgu_consulta   integer NOT NULL DEFAULT 1 CHECK (prgu_consulta IN (0, 1)),
    prgu_inclusao   integer NOT NULL DEFAULT 0 CHECK (prgu_inclusao IN (0, 1)),
    prgu_alteracao  integer NOT NULL DEFAULT 0 CHECK (prgu_alteracao IN (0, 1)),
    prgu_exclusao   integer NOT NULL DEFAULT 0 CHECK (prgu_exclusao IN (0, 1)),
    prgu_favorito   integer NOT NULL DEFAULT 0 CHECK (prgu_favorito IN (0, 1)),
    PRIMARY KEY (client_id, prgu_usuario, prgu_prog_id),
    FOREIGN KEY (client_id, prgu_usuario) REFERENCES usuarios (client_id, usr_id) ON DELETE CASCADE
);

-- Product subgroups a user may sell (subgroups live in catalog; no cross-schema key).
CREATE TABLE subgrupo_usuario (
    client_id     bigint NOT NULL,
    sgus_id       bigint NOT NULL,
    sgus_emp_id   bigint NOT NULL,
    sgus_usr_id   bigint NOT NULL,
    sgus_gsub_id  bigint NOT NULL,
    PRIMARY KEY (client_id, sgus_emp_id, sgus_id),
    CONSTRAINT subgrupo_usuario_key UNIQUE (client_id, sgus_emp_id, sgus_usr_id, sgus_gsub_id),
    FOREIGN KEY (client_id, sgus_usr_id) REFERENCES usuarios (client_id, usr_id) ON DELETE CASCADE
);

CREATE TABLE parametros_generico (
    client_id      bigint NOT NULL,
    parg_id        bigint NOT NULL,
    parg_descricao text NOT NULL,
    parg_valor     text,
    parg_obs       text,
    PRIMARY KEY (client_id, parg_id)
);

DO $$
DECLARE t text;
BEGIN
    FOREACH t IN ARRAY ARRAY['empresas', 'usuarios', 'programas_usuario', 'subgrupo_usuario', 'parametros_generico'] LOOP
        EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
        EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
        EXECUTE format('CREATE POLICY tenant ON %I USING (client_id = erp_current_client()) WITH CHECK (client_id = erp_current_client())', t);
    END LOOP;
END $$;
