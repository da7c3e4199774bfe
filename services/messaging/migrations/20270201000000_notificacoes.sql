-- The notifications of the bell: what happened that a user should know (a
-- message that was not sent, an NF-e the SEFAZ rejected, a slip paid), to one
-- user or to every user of a company, with what each user has read; and the
-- announcements to everyone (a new version).

-- Ids of notifications and announcements alike (one sequence: a user's list and
-- their read marks name either without ambiguity).
CREATE SEQUENCE notificacoes_seq;

-- A tenant's notifications: to user `noti_usr_id` of company `noti_emp_id`, or
-- (`noti_usr_id` 0) to every user who may use that company.
CREATE TABLE notificacoes (
    client_id     bigint      NOT NULL,
    noti_id       bigint      NOT NULL DEFAULT nextval('notificacoes_seq'),
    noti_emp_id   bigint      NOT NULL,
    -- 0: every user of the company.
    noti_usr_id   bigint      NOT NULL DEFAULT 0,
    -- 'mensagem' (a message not sent), 'nfe' (an NF-e rejected), 'boleto' (a slip paid).
    noti_tipo     text        NOT NULL,
    noti_mensagem text        NOT NULL,
    -- The screen it leads to ('/whatsapp', '/pedidos/alterar?id=...').
    noti_link     text,
    noti_dta_cad  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (client_id, noti_id)
);
-- A user's own, newest first; a company's (user 0), newest first.
CREATE INDEX notificacoes_destino ON notificacoes (client_id, noti_usr_id, noti_emp_id, noti_id DESC);
ALTER TABLE notificacoes ENABLE ROW LEVEL SECURITY;
ALTER TABLE notificacoes FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant ON notificacoes
    USING (client_id = erp_current_client())
    WITH CHECK (client_id = erp_current_client());

-- What each user has read: one row per user and notification (or announcement)
-- read, so a company's notification is read by each of its users on their own.
CREATE TABLE notificacoes_lidas (
    client_id bigint      NOT NULL,
    usr_id    bigint      NOT NULL,
    noti_id   bigint      NOT NULL,
    lida_em   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (client_id, usr_id, noti_id)
);
ALTER TABLE notificacoes_lidas ENABLE ROW LEVEL SECURITY;
ALTER TABLE notificacoes_lidas FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant ON notificacoes_lidas
    USING (client_id = erp_current_client())
    WITH CHECK (client_id = erp_current_client());

-- Across tenants, no tenant's content.

-- Announcements to every user of every client (client 0 of the published
-- notification): a new version of the system. Public text, read by everyone.
CREATE TABLE avisos (
    noti_id       bigint      PRIMARY KEY DEFAULT nextval('notificacoes_seq'),
    noti_tipo     text        NOT NULL,
    noti_mensagem text        NOT NULL,
    noti_link     text,
    noti_dta_cad  timestamptz NOT NULL DEFAULT now()
);

-- The version the service last announced: one row, locked by the replica that
-- starts, so a version is announced once however many replicas start with it.
CREATE TABLE versao (
    unica         boolean     PRIMARY KEY DEFAULT true CHECK (unica),
    versao        text        NOT NULL,
    registrada_em timestamptz NOT NULL DEFAULT now()
);
