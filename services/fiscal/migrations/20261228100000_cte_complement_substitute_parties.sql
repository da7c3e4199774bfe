-- CT-e of complement of values and substitute name the CT-e they complement
-- or replace (and whether a substitution changes the taker); the shipper
-- (expedidor) and the receiver (recebedor) are parties of the CT-e and may
-- take (pay for) the service.
ALTER TABLE cte
    ADD COLUMN cte_chave_ref        text CHECK (cte_chave_ref ~ '^[0-9]{44}$'),
    ADD COLUMN cte_altera_toma      boolean NOT NULL DEFAULT false,
    ADD COLUMN cte_exped_cli_id     bigint,
    ADD COLUMN cte_exped_cnpjcpf    text,
    ADD COLUMN cte_exped_nome       text,
    ADD COLUMN cte_exped_ie         text,
    ADD COLUMN cte_exped_endereco   text,
    ADD COLUMN cte_exped_numero     text,
    ADD COLUMN cte_exped_bairro     text,
    ADD COLUMN cte_exped_mun_ibge   text,
    ADD COLUMN cte_exped_municipio  text,
    ADD COLUMN cte_exped_uf         text,
    ADD COLUMN cte_exped_cep        text,
    ADD COLUMN cte_receb_cli_id     bigint,
    ADD COLUMN cte_receb_cnpjcpf    text,
    ADD COLUMN cte_receb_nome       text,
    ADD COLUMN cte_receb_ie         text,
    ADD COLUMN cte_receb_endereco   text,
    ADD COLUMN cte_receb_numero     text,
    ADD COLUMN cte_receb_bairro     text,
    ADD COLUMN cte_receb_mun_ibge   text,
    ADD COLUMN cte_receb_municipio  text,
    ADD COLUMN cte_receb_uf         text,
    ADD COLUMN cte_receb_cep        text,
    DROP CONSTRAINT cte_cte_tomador_check,
    ADD CONSTRAINT cte_cte_tomador_check CHECK (cte_tomador IN (0, 1, 2, 3, 4));
