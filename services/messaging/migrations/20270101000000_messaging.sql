-- The messaging service: the WhatsApp and e-mail queue, its attachments, the
-- providers' settings per company, and what the worker and the webhooks need to
-- find across tenants (ids only).

-- The queue: one row per message, from queued to sent, delivered, read or failed.
CREATE TABLE mensagens (
    client_id                bigint      NOT NULL,
    mens_emp_id              bigint      NOT NULL,
    mens_id                  bigint      NOT NULL,
    mens_usr_id              bigint,
    -- 'W' WhatsApp, 'E' e-mail.
    mens_canal               text        NOT NULL CHECK (mens_canal IN ('W', 'E')),
    mens_destinatario        text        NOT NULL,
    mens_destinatario_oculto text,
    mens_assunto             text,
    mens_descricao           text,
    -- When to send: a future time schedules it.
    mens_datahora            timestamptz NOT NULL,
    -- Asked for now (no future time): sent whatever the company's sending hours.
    mens_imediata            boolean     NOT NULL DEFAULT true,
    -- The route (screen) it was sent from.
    mens_projeto             text,
    -- 'T' text, 'I' image, 'D' document.
    mens_tipo                text        NOT NULL DEFAULT 'T' CHECK (mens_tipo IN ('T', 'I', 'D')),
    -- 'N' na fila, 'P' enviando, 'E' enviada, 'T' entregue, 'L' lida, 'F' falhou.
    mens_status              text        NOT NULL DEFAULT 'N' CHECK (mens_status IN ('N', 'P', 'E', 'T', 'L', 'F')),
    mens_programa            text,
    -- The provider's reason, in pt-BR (a failure, a retry, a missing provider).
    mens_erro                text,
    mens_tentativas          integer     NOT NULL DEFAULT 0,
    -- 'cloud', 'evolution' or 'smtp', and the provider's id of the message.
    mens_provedor            text,
    mens_provedor_id         text,
    mens_anexo_nome          text,
    -- The document it carried (an order's PDF, an NF-e's XML).
    mens_doc_tipo            text,
    mens_doc_id              bigint,
    -- An approved WhatsApp template sent instead of free text.
    mens_template            text,
    mens_template_idioma     text,
    mens_template_parametros jsonb,
    mens_dta_cad             timestamptz NOT NULL DEFAULT now(),
    mens_dta_envio           timestamptz,
    mens_dta_alt             timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (client_id, mens_emp_id, mens_id)
);
CREATE INDEX mensagens_provedor ON mensagens (client_id, mens_emp_id, mens_provedor_id)
    WHERE mens_provedor_id IS NOT NULL;
CREATE INDEX mensagens_datahora ON mensagens (client_id, mens_emp_id, mens_datahora DESC, mens_id DESC);
ALTER TABLE mensagens ENABLE ROW LEVEL SECURITY;
ALTER TABLE mensagens FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant ON mensagens
    USING (client_id = erp_current_client())
    WITH CHECK (client_id = erp_current_client());

-- The files a message carries (one for WhatsApp, any number for e-mail).
CREATE TABLE mensagens_anexos (
    client_id     bigint  NOT NULL,
    mens_emp_id   bigint  NOT NULL,
    mens_id       bigint  NOT NULL,
    anex_seq      integer NOT NULL,
    anex_nome     text    NOT NULL,
    anex_tipo     text    NOT NULL,
    anex_conteudo bytea   NOT NULL,
    PRIMARY KEY (client_id, mens_emp_id, mens_id, anex_seq),
    FOREIGN KEY (client_id, mens_emp_id, mens_id)
        REFERENCES mensagens (client_id, mens_emp_id, mens_id) ON DELETE CASCADE
);
ALTER TABLE mensagens_anexos ENABLE ROW LEVEL SECURITY;
ALTER TABLE mensagens_anexos FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant ON mensagens_anexos
    USING (client_id = erp_current_client())
    WITH CHECK (client_id = erp_current_client());

-- Statuses a webhook reported before the worker recorded the provider's id of
-- the message (the provider can be faster than our commit): applied then.
CREATE TABLE status_pendentes (
    client_id   bigint      NOT NULL,
    emp_id      bigint      NOT NULL,
    provedor_id text        NOT NULL,
    status      text        NOT NULL,
    erro        text,
    recebido_em timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (client_id, emp_id, provedor_id, status)
);
ALTER TABLE status_pendentes ENABLE ROW LEVEL SECURITY;
ALTER TABLE status_pendentes FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant ON status_pendentes
    USING (client_id = erp_current_client())
    WITH CHECK (client_id = erp_current_client());

-- WhatsApp settings of a company. The token, app secret and verify token are
-- sealed (AES-256-GCM, ERP_MESSAGING_KEY) and never read back by the API.
CREATE TABLE whatsapp_config (
    client_id          bigint NOT NULL,
    wcfg_id            bigint NOT NULL,
    wcfg_emp_id        bigint NOT NULL,
    wcfg_usr_id        bigint,
    -- 'cloud' (Meta WhatsApp Cloud API) or 'evolution' (Evolution API v2).
    wcfg_provedor      text   NOT NULL CHECK (wcfg_provedor IN ('cloud', 'evolution')),
    wcfg_url           text,
    -- Cloud API: the phone number id; Evolution: the instance's name.
    wcfg_numero_id     text,
    wcfg_instancia     text,
    wcfg_token         text,
    wcfg_app_secret    text,
    wcfg_verify_token  text,
    -- Sending hours ('HH:MM', Brasília), and messages per minute (null: no limit).
    wcfg_hora_inicio   text,
    wcfg_hora_fim      text,
    wcfg_limite_minuto integer CHECK (wcfg_limite_minuto IS NULL OR wcfg_limite_minuto > 0),
    PRIMARY KEY (client_id, wcfg_id),
    CONSTRAINT whatsapp_config_empresa UNIQUE (client_id, wcfg_emp_id)
);
ALTER TABLE whatsapp_config ENABLE ROW LEVEL SECURITY;
ALTER TABLE whatsapp_config FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant ON whatsapp_config
    USING (client_id = erp_current_client())
    WITH CHECK (client_id = erp_current_client());

-- SMTP settings of a company (the password sealed like the WhatsApp secrets).
CREATE TABLE email_config (
    client_id           bigint NOT NULL,
    emcf_id             bigint NOT NULL,
    emcf_emp_id         bigint NOT NULL,
    emcf_usr_id         bigint,
    emcf_host           text   NOT NULL,
    emcf_porta          integer NOT NULL DEFAULT 587 CHECK (emcf_porta BETWEEN 1 AND 65535),
    -- 'starttls', 'tls' or 'nenhuma'.
    emcf_seguranca      text   NOT NULL DEFAULT 'starttls' CHECK (emcf_seguranca IN ('starttls', 'tls', 'nenhuma')),
    emcf_usuario        text,
    emcf_senha          text,
    emcf_remetente      text   NOT NULL,
    emcf_remetente_nome text,
    PRIMARY KEY (client_id, emcf_id),
    CONSTRAINT email_config_empresa UNIQUE (client_id, emcf_emp_id)
);
ALTER TABLE email_config ENABLE ROW LEVEL SECURITY;
ALTER TABLE email_config FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant ON email_config
    USING (client_id = erp_current_client())
    WITH CHECK (client_id = erp_current_client());

-- Infrastructure across tenants, like the outbox: ids and times only, no
-- content, never reached by a caller's request.

-- The dispatch of due messages: a row while a message waits to be sent (queued,
-- scheduled, or waiting for a retry). Workers claim rows with FOR UPDATE SKIP
-- LOCKED and hold them by a lease; a crashed worker's lease expires and another
-- takes the message.
CREATE TABLE fila (
    client_id   bigint      NOT NULL,
    emp_id      bigint      NOT NULL,
    mens_id     bigint      NOT NULL,
    canal       text        NOT NULL,
    due_at      timestamptz NOT NULL,
    lease_until timestamptz,
    lease_owner uuid,
    PRIMARY KEY (client_id, emp_id, mens_id)
);
CREATE INDEX fila_due ON fila (due_at);

-- Sends started per sender and minute (the per-minute rate limit, shared by
-- every worker replica).
CREATE TABLE ritmo (
    client_id bigint      NOT NULL,
    emp_id    bigint      NOT NULL,
    minuto    timestamptz NOT NULL,
    enviados  integer     NOT NULL,
    PRIMARY KEY (client_id, emp_id, minuto)
);

-- Which tenant a provider's webhook belongs to: the Cloud API's phone number id
-- or the Evolution instance's name, and the SHA-256 of the Cloud API verify
-- token (the GET handshake names nothing else). Written with the settings.
CREATE TABLE rotas (
    provedor    text   NOT NULL,
    chave       text   NOT NULL,
    client_id   bigint NOT NULL,
    emp_id      bigint NOT NULL,
    verify_hash text,
    PRIMARY KEY (provedor, chave),
    CONSTRAINT rotas_empresa UNIQUE (client_id, emp_id)
);
CREATE INDEX rotas_verify ON rotas (verify_hash) WHERE verify_hash IS NOT NULL;
