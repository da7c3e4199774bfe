-- The read model's finished service orders (with their lines, the sector of each
-- service) and the copies they name: catalog's vehicles and service sectors.
-- Runs with search_path = reports. Tenant tables: client_id first in the key, RLS
-- forced on client_id = erp_current_client().

CREATE TABLE veiculos (
    client_id  bigint NOT NULL,
    emp_id     bigint NOT NULL,
    veic_id    bigint NOT NULL,
    placa      text,
    cli_id     bigint,
    ano_modelo bigint,
    cor        text,
    excluido   boolean NOT NULL DEFAULT false,
    PRIMARY KEY (client_id, emp_id, veic_id)
);

CREATE TABLE setores (
    client_id  bigint NOT NULL,
    emp_id     bigint NOT NULL,
    sets_id    bigint NOT NULL,
    descricao  text,
    excluido   boolean NOT NULL DEFAULT false,
    PRIMARY KEY (client_id, emp_id, sets_id)
);

-- One finished service order (erp.orders.ordemservico.finalizada), once.
CREATE TABLE ordensservico (
    client_id    bigint NOT NULL,
    emp_id       bigint NOT NULL,
    ords_id      bigint NOT NULL,
    serie        text NOT NULL,
    cli_id       bigint NOT NULL,
    cli_nome     text,
    veic_id      bigint,
    km           bigint,
    cola_id      bigint,
    dta_entrada  date NOT NULL,
    dta_saida    date NOT NULL,
    servicos     numeric(15,2) NOT NULL,
    pecas        numeric(15,2) NOT NULL,
    acrescimos   numeric(15,2) NOT NULL,
    descontos    numeric(15,2) NOT NULL,
    total        numeric(15,2) NOT NULL,
    usr_id       bigint,
    PRIMARY KEY (client_id, emp_id, ords_id, serie)
);
CREATE INDEX ordensservico_saida ON ordensservico (client_id, emp_id, dta_saida);
CREATE INDEX ordensservico_veiculo ON ordensservico (client_id, emp_id, veic_id);

CREATE TABLE ordensservicoitens (
    client_id   bigint NOT NULL,
    emp_id      bigint NOT NULL,
    ords_id     bigint NOT NULL,
    serie       text NOT NULL,
    tipo        char(1) NOT NULL CHECK (tipo IN ('S', 'P')),
    item        bigint NOT NULL,
    item_id     bigint NOT NULL,
    descricao   text,
    qtde        numeric(15,4) NOT NULL,
    vlr_unit    numeric(15,4) NOT NULL,
    desconto    numeric(15,2) NOT NULL,
    acrescimo   numeric(15,2) NOT NULL,
    total       numeric(15,2) NOT NULL,
    sets_id     bigint,
    cola_id     bigint,
    dta_saida   date NOT NULL,
    PRIMARY KEY (client_id, emp_id, ords_id, serie, tipo, item),
    FOREIGN KEY (client_id, emp_id, ords_id, serie) REFERENCES ordensservico ON DELETE CASCADE
);
CREATE INDEX ordensservicoitens_setor ON ordensservicoitens (client_id, emp_id, dta_saida, sets_id);

DO $$
DECLARE t text;
BEGIN
    FOREACH t IN ARRAY ARRAY['veiculos', 'setores', 'ordensservico', 'ordensservicoitens'] LOOP
        EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
        EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
        EXECUTE format('CREATE POLICY tenant ON %I USING (client_id = erp_current_client()) WITH CHECK (client_id = erp_current_client())', t);
    END LOOP;
END $$;

-- The NF-e of invoiced orders (fiscal's erp.fiscal.nfe.autorizada / cancelada),
-- kept apart from the sale so that either fact may arrive first.
CREATE TABLE vendasnfe (
    client_id  bigint NOT NULL,
    emp_id     bigint NOT NULL,
    pedf_id    bigint NOT NULL,
    serie      text NOT NULL,
    numero     bigint,
    nfe_serie  integer,
    chave      text,
    protocolo  text,
    cancelada  boolean NOT NULL DEFAULT false,
    PRIMARY KEY (client_id, emp_id, pedf_id, serie)
);
ALTER TABLE vendasnfe ENABLE ROW LEVEL SECURITY;
ALTER TABLE vendasnfe FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant ON vendasnfe USING (client_id = erp_current_client()) WITH CHECK (client_id = erp_current_client());
