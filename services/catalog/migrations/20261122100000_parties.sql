-- Catalog: collaborators, customers with their sub-registers, suppliers.
-- Runs with search_path = catalog. Tenant tables: client_id first in the key, then
-- the company column when the register is per company; row-level security forced on
-- client_id = erp_current_client(). References to registers declared by other
-- modules (functions, cities, countries, services, products, payment terms) are plain
-- columns: those tables may be global or live in another service.

CREATE TABLE colaborador (
    client_id            bigint NOT NULL,
    cola_emp_id          bigint NOT NULL,
    cola_id              bigint NOT NULL,
    cola_nome            text NOT NULL,
    cola_apelido         text,
    cola_cpf             text,
    cola_rg              text,
    cola_dta_nasc        date,
    cola_func_id         bigint,
    cola_fone            text,
    cola_email           text,
    cola_perc_comissao   numeric(7,4) CHECK (cola_perc_comissao BETWEEN 0 AND 100),
    cola_vendedor        boolean NOT NULL DEFAULT false,
    cola_tecnico         boolean NOT NULL DEFAULT false,
    cola_dta_admissao    date,
    cola_dta_demissao    date,
    cola_cep             text,
    cola_endereco        text,
    cola_numero          text,
    cola_complemento     text,
    cola_bairro          text,
    cola_cid_ibge        bigint,
    cola_cidade          text,
    cola_uf              text,
    cola_obs             text,
    cola_situacao        integer NOT NULL DEFAULT 1,
    cola_dta_cad         timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (client_id, cola_emp_id, cola_id)
);
CREATE UNIQUE INDEX colaborador_cpf_key ON colaborador (client_id, cola_emp_id, cola_cpf) WHERE cola_cpf IS NOT NULL;
CREATE INDEX colaborador_nome_trgm ON colaborador USING gin (cola_nome gin_trgm_ops);
CREATE INDEX colaborador_apelido_trgm ON colaborador USING gin (cola_apelido gin_trgm_ops);
CREATE INDEX colaborador_cpf_trgm ON colaborador USING gin (cola_cpf gin_trgm_ops);

-- Equipment (tools, uniforms, PPE) handed to a collaborator.
CREATE TABLE colaboradoreqp (
    client_id             bigint NOT NULL,
    colae_emp_id          bigint NOT NULL,
    colae_eqp_id          bigint NOT NULL,
    colae_cola_id         bigint NOT NULL,
    colae_eqp_descricao   text NOT NULL,
    colae_qtde            numeric(15,4),
    colae_patrimonio      text,
    colae_dta_entrega     date,
    colae_dta_devolucao   date,
    colae_obs             text,
    PRIMARY KEY (client_id, colae_emp_id, colae_eqp_id),
    FOREIGN KEY (client_id, colae_emp_id, colae_cola_id)
        REFERENCES colaborador (client_id, cola_emp_id, cola_id) ON DELETE CASCADE
);
CREATE INDEX colaboradoreqp_cola ON colaboradoreqp (client_id, colae_emp_id, colae_cola_id);
CREATE INDEX colaboradoreqp_descricao_trgm ON colaboradoreqp USING gin (colae_eqp_descricao gin_trgm_ops);

CREATE TABLE clientes (
    client_id            bigint NOT NULL,
    cli_emp_id           bigint NOT NULL,
    cli_id               bigint NOT NULL,
    -- F física, J jurídica, E exterior, R produtor rural, P pré-cadastro.
    cli_tipo_pessoa      text NOT NULL DEFAULT 'F' CHECK (cli_tipo_pessoa IN ('F', 'J', 'E', 'R', 'P')),
    cli_descricao        text NOT NULL,
    cli_fantasia         text,
    cli_cpf              text,
    cli_cgc              text,
    cli_doc_estrangeiro  text,
    cli_ind_ie           integer NOT NULL DEFAULT 9 CHECK (cli_ind_ie IN (1, 2, 9)),
    cli_ie               text,
    cli_im               text,
    cli_rg               text,
    cli_dta_nasc         date,
    cli_cep              text,
    cli_endereco         text,
    cli_numero           text,
    cli_complemento      text,
    cli_bairro           text,
    cli_cid_ibge         bigint,
    cli_cidade           text,
    cli_uf               text,
    cli_pais_id          bigint,
    cli_fone             text,
    cli_email            text,
    cli_email_nfe        text,
    cli_contato          text,
    cli_limite_credito   numeric(15,2) CHECK (cli_limite_credito >= 0),
    cli_cola_id          bigint,
    cli_tabela_preco     integer,
    cli_cndp_id          bigint,
    -- 1 ativo, 2 bloqueado.
    cli_situacao         integer NOT NULL DEFAULT 1 CHECK (cli_situacao IN (1, 2)),
    cli_motivo_bloqueio  text,
    cli_obs              text,
    cli_imagem           text,
    cli_dta_cad          timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (client_id, cli_emp_id, cli_id),
    FOREIGN KEY (client_id, cli_emp_id, cli_cola_id) REFERENCES colaborador (client_id, cola_emp_id, cola_id)
);
-- One customer per document in a company: a second registration is a typing slip.
CREATE UNIQUE INDEX clientes_cpf_key ON clientes (client_id, cli_emp_id, cli_cpf) WHERE cli_cpf IS NOT NULL;
CREATE UNIQUE INDEX clientes_cgc_key ON clientes (client_id, cli_emp_id, cli_cgc) WHERE cli_cgc IS NOT NULL;
CREATE INDEX clientes_descricao_trgm ON clientes USING gin (cli_descricao gin_trgm_ops);
CREATE INDEX clientes_fantasia_trgm ON clientes USING gin (cli_fantasia gin_trgm_ops);
CREATE INDEX clientes_cpf_trgm ON clientes USING gin (cli_cpf gin_trgm_ops);
CREATE INDEX clientes_cgc_trgm ON clientes USING gin (cli_cgc gin_trgm_ops);
CREATE INDEX clientes_cidade_trgm ON clientes USING gin (cli_cidade gin_trgm_ops);
CREATE INDEX clientes_tipo ON clientes (client_id, cli_emp_id, cli_tipo_pessoa);
CREATE INDEX clientes_vendedor ON clientes (client_id, cli_emp_id, cli_cola_id);

CREATE TABLE clientescontato (
    client_id         bigint NOT NULL,
    contato_emp_id    bigint NOT NULL,
    contato_id        bigint NOT NULL,
    contato_cli_id    bigint NOT NULL,
    contato_nome      text NOT NULL,
    contato_cargo     text,
    contato_setor     text,
    contato_fone      text,
    contato_email     text,
    contato_dta_nasc  date,
    contato_obs       text,
    PRIMARY KEY (client_id, contato_emp_id, contato_id),
    FOREIGN KEY (client_id, contato_emp_id, contato_cli_id)
        REFERENCES clientes (client_id, cli_emp_id, cli_id) ON DELETE CASCADE
);
CREATE INDEX clientescontato_cli ON clientescontato (client_id, contato_emp_id, contato_cli_id);
CREATE INDEX clientescontato_nome_trgm ON clientescontato USING gin (contato_nome gin_trgm_ops);

-- Commercial, bank and personal references.
CREATE TABLE clientesc (
    client_id     bigint NOT NULL,
    ref_emp_id    bigint NOT NULL,
    ref_id        bigint NOT NULL,
    ref_cli_id    bigint NOT NULL,
    ref_tipo      text NOT NULL DEFAULT 'C' CHECK (ref_tipo IN ('C', 'B', 'P')),
    ref_nome      text NOT NULL,
    ref_contato   text,
    ref_fone      text,
    ref_email     text,
    ref_obs       text,
    PRIMARY KEY (client_id, ref_emp_id, ref_id),
    FOREIGN KEY (client_id, ref_emp_id, ref_cli_id)
        REFERENCES clientes (client_id, cli_emp_id, cli_id) ON DELETE CASCADE
);
CREATE INDEX clientesc_cli ON clientesc (client_id, ref_emp_id, ref_cli_id);
CREATE INDEX clientesc_nome_trgm ON clientesc USING gin (ref_nome gin_trgm_ops);

-- Files attached to a customer; clia_anexo is the stored file name.
CREATE TABLE clientesanexo (
    client_id       bigint NOT NULL,
    clia_fil_id     bigint NOT NULL,
    clia_id         bigint NOT NULL,
    clia_cli_id     bigint NOT NULL,
    clia_descricao  text NOT NULL,
    clia_anexo      text,
    clia_usr_id     bigint,
    clia_dta_cad    timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (client_id, clia_fil_id, clia_id),
    FOREIGN KEY (client_id, clia_fil_id, clia_cli_id)
        REFERENCES clientes (client_id, cli_emp_id, cli_id) ON DELETE CASCADE
);
CREATE INDEX clientesanexo_cli ON clientesanexo (client_id, clia_fil_id, clia_cli_id);
CREATE INDEX clientesanexo_descricao_trgm ON clientesanexo USING gin (clia_descricao gin_trgm_ops);

CREATE TABLE clientesfamiliar (
    client_id        bigint NOT NULL,
    clif_emp_id      bigint NOT NULL,
    clif_id          bigint NOT NULL,
    clif_cli_id      bigint NOT NULL,
    clif_nome        text NOT NULL,
    clif_parentesco  text,
    clif_dta_nasc    date,
    clif_cpf         text,
    clif_fone        text,
    clif_obs         text,
    PRIMARY KEY (client_id, clif_emp_id, clif_id),
    FOREIGN KEY (client_id, clif_emp_id, clif_cli_id)
        REFERENCES clientes (client_id, cli_emp_id, cli_id) ON DELETE CASCADE
);
CREATE INDEX clientesfamiliar_cli ON clientesfamiliar (client_id, clif_emp_id, clif_cli_id);
CREATE INDEX clientesfamiliar_nome_trgm ON clientesfamiliar USING gin (clif_nome gin_trgm_ops);

-- Contact history. Date and time default to Brasília time, the legal time of the
-- documents the history accompanies.
CREATE TABLE clienteshistorico (
    client_id        bigint NOT NULL,
    clih_emp_id      bigint NOT NULL,
    clih_id          bigint NOT NULL,
    clih_cli_id      bigint NOT NULL,
    clih_data_emis   date NOT NULL DEFAULT (now() AT TIME ZONE 'America/Sao_Paulo')::date,
    clih_hora_emis   text NOT NULL DEFAULT to_char(now() AT TIME ZONE 'America/Sao_Paulo', 'HH24:MI:SS'),
    clih_descricao   text NOT NULL,
    clih_usr_id      bigint,
    PRIMARY KEY (client_id, clih_emp_id, clih_id),
    FOREIGN KEY (client_id, clih_emp_id, clih_cli_id)
        REFERENCES clientes (client_id, cli_emp_id, cli_id) ON DELETE CASCADE
);
CREATE INDEX clienteshistorico_cli ON clienteshistorico (client_id, clih_emp_id, clih_cli_id, clih_data_emis);
CREATE INDEX clienteshistorico_descricao_trgm ON clienteshistorico USING gin (clih_descricao gin_trgm_ops);

-- Services a customer has contracted or gets at a special price.
CREATE TABLE clientesserv (
    client_id        bigint NOT NULL,
    clis_emp_id      bigint NOT NULL,
    clis_cli_id      bigint NOT NULL,
    clis_serv_id     bigint NOT NULL,
    clis_descricao   text NOT NULL,
    clis_valor       numeric(15,2) CHECK (clis_valor >= 0),
    clis_obs         text,
    PRIMARY KEY (client_id, clis_emp_id, clis_cli_id, clis_serv_id),
    FOREIGN KEY (client_id, clis_emp_id, clis_cli_id)
        REFERENCES clientes (client_id, cli_emp_id, cli_id) ON DELETE CASCADE
);
CREATE INDEX clientesserv_descricao_trgm ON clientesserv USING gin (clis_descricao gin_trgm_ops);

-- Contracts are business documents: a customer with contracts cannot be deleted.
CREATE TABLE contratocliente (
    client_id          bigint NOT NULL,
    cont_emp_id        bigint NOT NULL,
    cont_id            bigint NOT NULL,
    cont_cli_id        bigint NOT NULL,
    cont_descricao     text NOT NULL,
    cont_numero        text,
    cont_valor         numeric(15,2) NOT NULL CHECK (cont_valor >= 0),
    cont_data_ini      date NOT NULL,
    cont_data_fim      date,
    cont_dia_vencimento integer CHECK (cont_dia_vencimento BETWEEN 1 AND 31),
    cont_periodicidade text CHECK (cont_periodicidade IN ('M', 'B', 'T', 'S', 'A')),
    cont_situacao      integer NOT NULL DEFAULT 1,
    cont_obs           text,
    cont_dta_cad       timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (client_id, cont_emp_id, cont_id),
    FOREIGN KEY (client_id, cont_emp_id, cont_cli_id) REFERENCES clientes (client_id, cli_emp_id, cli_id)
);
CREATE INDEX contratocliente_cli ON contratocliente (client_id, cont_emp_id, cont_cli_id);
CREATE INDEX contratocliente_descricao_trgm ON contratocliente USING gin (cont_descricao gin_trgm_ops);
CREATE INDEX contratocliente_numero_trgm ON contratocliente USING gin (cont_numero gin_trgm_ops);

-- Suppliers are shared by the client's companies (the legacy calls carry no company).
CREATE TABLE fornecedor (
    client_id          bigint NOT NULL,
    forn_id            bigint NOT NULL,
    forn_descricao     text NOT NULL,
    forn_fantasia      text,
    forn_cgc           text,
    forn_ie            text,
    forn_im            text,
    forn_cep           text,
    forn_endereco      text,
    forn_numero        text,
    forn_complemento   text,
    forn_bairro        text,
    forn_cid_ibge      bigint,
    forn_cidade        text,
    forn_uf            text,
    forn_fone          text,
    forn_email         text,
    forn_site          text,
    forn_contato       text,
    forn_prazo_entrega integer CHECK (forn_prazo_entrega >= 0),
    forn_cndp_id       bigint,
    forn_situacao      integer NOT NULL DEFAULT 1,
    forn_obs           text,
    forn_dta_cad       timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (client_id, forn_id)
);
CREATE UNIQUE INDEX fornecedor_cgc_key ON fornecedor (client_id, forn_cgc) WHERE forn_cgc IS NOT NULL;
CREATE INDEX fornecedor_descricao_trgm ON fornecedor USING gin (forn_descricao gin_trgm_ops);
CREATE INDEX fornecedor_fantasia_trgm ON fornecedor USING gin (forn_fantasia gin_trgm_ops);
CREATE INDEX fornecedor_cgc_trgm ON fornecedor USING gin (forn_cgc gin_trgm_ops);

-- A supplier's code for one of our products and the last price paid.
CREATE TABLE fornecedorprod (
    client_id               bigint NOT NULL,
    fopr_forn_id            bigint NOT NULL,
    fopr_prod_id            bigint NOT NULL,
    fopr_codigo             text NOT NULL,
    fopr_descricao          text,
    fopr_unidade            text,
    fopr_fator_conversao    numeric(15,4) CHECK (fopr_fator_conversao > 0),
    fopr_vlr_ultima_compra  numeric(15,4) CHECK (fopr_vlr_ultima_compra >= 0),
    fopr_dta_ultima_compra  date,
    PRIMARY KEY (client_id, fopr_forn_id, fopr_prod_id),
    FOREIGN KEY (client_id, fopr_forn_id) REFERENCES fornecedor (client_id, forn_id) ON DELETE CASCADE
);
CREATE INDEX fornecedorprod_prod ON fornecedorprod (client_id, fopr_prod_id);
CREATE INDEX fornecedorprod_codigo_trgm ON fornecedorprod USING gin (fopr_codigo gin_trgm_ops);
CREATE INDEX fornecedorprod_descricao_trgm ON fornecedorprod USING gin (fopr_descricao gin_trgm_ops);

DO $$
DECLARE t text;
BEGIN
    FOREACH t IN ARRAY ARRAY['colaborador', 'colaboradoreqp', 'clientes', 'clientescontato', 'clientesc',
                             'clientesanexo', 'clientesfamiliar', 'clienteshistorico', 'clientesserv',
                             'contratocliente', 'fornecedor', 'fornecedorprod'] LOOP
        EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
        EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
        EXECUTE format('CREATE POLICY tenant ON %I USING (client_id = erp_current_client()) WITH CHECK (client_id = erp_current_client())', t);
    END LOOP;
END $$;
