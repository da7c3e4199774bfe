//! `POST /whatsapp/send` and `POST /email/send`: what they refuse (the contract's
//! pt-BR messages) and what they queue, committed, without calling a provider.

use serde_json::json;

use crate::*;

#[tokio::test]
async fn a_valid_message_is_queued_and_answered_once_committed() {
    let db = db().await;
    let deps = deps();
    let c = client();
    let v = send(
        &db,
        &deps,
        c,
        json!({"MENS_USR_ID": "3", "MENS_DESCRICAO": "Seu pedido 12 está pronto.", "MENS_DESTINATARIO": "+55 (54) 99987-6543",
               "MENS_DATAHORA": "", "MENS_PROJETO": "pedidos", "MENS_TIPO": "T", "MENS_STATUS": "N", "MENS_PROGRAMA": "BSWEB"}),
    )
    .await
    .expect("queued");
    assert_eq!(v["msg"], "Whatsapp Agendado com sucesso!");
    let id = id_of(&v);
    // Committed: another transaction sees it, queued and due now, untouched by
    // any provider.
    let r = row(&db, c, id).await;
    assert_eq!(r["mens_status"], "N");
    assert_eq!(r["mens_destinatario"], MOBILE);
    assert_eq!(r["mens_canal"], "W");
    assert_eq!(r["mens_usr_id"], 7, "the token's user, not the body's");
    assert_eq!(r["mens_imediata"], true);
    assert_eq!(r["mens_tentativas"], 0);
    assert_eq!(r["mens_programa"], "BSWEB");
    let due: i64 = sqlx::query_scalar("SELECT count(*) FROM messaging.fila WHERE client_id = $1 AND mens_id = $2 AND due_at <= now()")
        .bind(c)
        .bind(id)
        .fetch_one(&db.pool)
        .await
        .expect("fila");
    assert_eq!(due, 1);
    // Ids grow (a sequence: not dense per company, never reused).
    let v2 = send(
        &db,
        &deps,
        c,
        json!({"MENS_DESCRICAO": "x", "MENS_DESTINATARIO": MOBILE}),
    )
    .await
    .expect("second");
    assert!(id_of(&v2) > id);
}

#[tokio::test]
async fn numbers_outside_the_brazilian_rules_are_refused() {
    let db = db().await;
    let deps = deps();
    let c = client();
    for bad in [
        "54999876543",
        "5520999876543",
        "5554899876543",
        "555419876543",
        "",
        "5554abc",
    ] {
        let r = send(
            &db,
            &deps,
            c,
            json!({"MENS_DESCRICAO": "x", "MENS_DESTINATARIO": bad}),
        )
        .await;
        assert_eq!(
            msg(r),
            Some("Número Inválido ou não encontrado!".into()),
            "{bad}"
        );
    }
    let r = send(&db, &deps, c, json!({"MENS_DESCRICAO": "x"})).await;
    assert_eq!(msg(r), Some("Número Inválido ou não encontrado!".into()));
    // Landline and mobile both pass.
    send(
        &db,
        &deps,
        c,
        json!({"MENS_DESCRICAO": "x", "MENS_DESTINATARIO": "551134567890"}),
    )
    .await
    .expect("landline");
    let n: i64 = sqlx::query_scalar("SELECT count(*) FROM messaging.fila WHERE client_id = $1")
        .bind(c)
        .fetch_one(&db.pool)
        .await
        .expect("n");
    assert_eq!(n, 1, "nothing of the refused ones was queued");
}

#[tokio::test]
async fn files_are_checked_by_their_bytes_against_the_type() {
    let db = db().await;
    let deps = deps();
    let c = client();
    let base = |kind: &str, files: Vec<serde_json::Value>| json!({"MENS_DESCRICAO": "Segue", "MENS_DESTINATARIO": MOBILE, "MENS_TIPO": kind, "arquivos": files});
    let m = |r| msg(r).unwrap_or_default();
    assert_eq!(
        m(send(
            &db,
            &deps,
            c,
            base("I", vec![file("nota.png", b"%PDF-1.4 x")])
        )
        .await),
        erp_messaging::files::NOT_IMAGE
    );
    assert_eq!(
        m(send(
            &db,
            &deps,
            c,
            base("D", vec![file("virus.exe", b"MZ\x90\x00")])
        )
        .await),
        erp_messaging::files::NOT_DOCUMENT
    );
    assert_eq!(
        m(send(&db, &deps, c, base("D", vec![])).await),
        erp_messaging::files::FILE_NEEDED
    );
    assert_eq!(
        m(send(&db, &deps, c, base("T", vec![file("a.png", PNG)])).await),
        erp_messaging::files::TEXT_HAS_NO_FILE
    );
    assert_eq!(
        m(send(
            &db,
            &deps,
            c,
            base("I", vec![file("a.png", PNG), file("b.png", PNG)])
        )
        .await),
        "Envie um arquivo por mensagem de WhatsApp."
    );
    let mut big = PNG.to_vec();
    big.resize(erp_messaging::files::MAX_IMAGE + 1, 0);
    assert_eq!(
        m(send(&db, &deps, c, base("I", vec![file("a.png", &big)])).await),
        erp_messaging::files::IMAGE_TOO_BIG
    );
    assert_eq!(
        m(send(&db, &deps, c, base("X", vec![])).await),
        "Tipo de mensagem inválido (T texto, I imagem, D documento)."
    );
    // A good image is kept byte for byte with its type.
    let v = send(
        &db,
        &deps,
        c,
        base("I", vec![file("Foto da peça.PNG", PNG)]),
    )
    .await
    .expect("image");
    let mut tx = db.begin_tenant(c).await.expect("tx");
    let (name, mime, bytes): (String, String, Vec<u8>) = sqlx::query_as(
        "SELECT anex_nome, anex_tipo, anex_conteudo FROM messaging.mensagens_anexos WHERE client_id = $1 AND mens_id = $2",
    )
    .bind(c)
    .bind(id_of(&v))
    .fetch_one(&mut *tx)
    .await
    .expect("file");
    assert_eq!(
        (name.as_str(), mime.as_str(), bytes.as_slice()),
        ("Foto_da_peca.png", "image/png", PNG)
    );
}

#[tokio::test]
async fn texts_times_and_templates() {
    let db = db().await;
    let deps = deps();
    let c = client();
    let r = send(
        &db,
        &deps,
        c,
        json!({"MENS_DESCRICAO": "  ", "MENS_DESTINATARIO": MOBILE}),
    )
    .await;
    assert_eq!(msg(r), Some("Mensagem é obrigatório!".into()));
    let r = send(
        &db,
        &deps,
        c,
        json!({"MENS_DESCRICAO": "a".repeat(4097), "MENS_DESTINATARIO": MOBILE}),
    )
    .await;
    assert_eq!(
        msg(r),
        Some("A mensagem deve ter no máximo 4096 caracteres.".into())
    );
    let r = send(
        &db,
        &deps,
        c,
        json!({"MENS_DESCRICAO": "x", "MENS_DESTINATARIO": MOBILE, "MENS_DATAHORA": "amanhã"}),
    )
    .await;
    assert_eq!(
        msg(r),
        Some(erp_messaging::resources::messages::BAD_WHEN.into())
    );
    // A future time schedules it: not immediate, due then.
    let v = send(&db, &deps, c, json!({"MENS_DESCRICAO": "x", "MENS_DESTINATARIO": MOBILE, "MENS_DATAHORA": "2999-01-02 08:30"}))
        .await
        .expect("scheduled");
    let r = row(&db, c, id_of(&v)).await;
    assert_eq!(r["mens_imediata"], false);
    assert_eq!(r["mens_datahora"], "2999-01-02T11:30:00+00:00");
    // A template needs no text; its parameters are a JSON list.
    let r = send(&db, &deps, c, json!({"MENS_DESTINATARIO": MOBILE, "MENS_TEMPLATE": "pedido_pronto", "MENS_TEMPLATE_PARAMETROS": "12"})).await;
    assert_eq!(
        msg(r),
        Some("Parâmetros do modelo inválidos: envie uma lista JSON de textos.".into())
    );
    let v = send(&db, &deps, c, json!({"MENS_DESTINATARIO": MOBILE, "MENS_TEMPLATE": "pedido_pronto", "MENS_TEMPLATE_PARAMETROS": "[\"12\", \"Ana\"]"}))
        .await
        .expect("template");
    let r = row(&db, c, id_of(&v)).await;
    assert_eq!(r["mens_template"], "pedido_pronto");
    assert_eq!(r["mens_template_idioma"], "pt_BR");
    assert_eq!(r["mens_template_parametros"], json!(["12", "Ana"]));
}

#[tokio::test]
async fn emails_refuse_bad_recipients_header_injection_and_too_much() {
    let db = db().await;
    let deps = deps();
    let c = client();
    let e = |v| call(&db, &deps, c, "whatsapp", "email", &[], v);
    let ok = json!({"MENS_EMP_ID": 1, "MENS_DESTINATARIO": "a@x.com.br; b@y.com", "MENS_ASSUNTO": "Orçamento", "MENS_DESCRICAO": "Segue."});
    let with = |k: &str, v: serde_json::Value| {
        let mut b = ok.clone();
        b[k] = v;
        b
    };
    assert_eq!(
        msg(e(with("MENS_DESTINATARIO", json!("a@x.com.br; nada"))).await),
        Some("E-mail inválido.".into())
    );
    assert_eq!(
        msg(e(with("MENS_DESTINATARIO", json!(" ; "))).await),
        Some("Adicione pelo menos um destinatário!".into())
    );
    assert_eq!(
        msg(e(with("MENS_DESTINATARIO_OCULTO", json!("oculto"))).await),
        Some("E-mail inválido.".into())
    );
    assert_eq!(
        msg(e(with("MENS_ASSUNTO", json!(""))).await),
        Some("Adicione um assunto!".into())
    );
    assert_eq!(
        msg(e(with("MENS_ASSUNTO", json!("Oi\r\nBcc: espiao@mal.com"))).await),
        Some("O campo Assunto não pode ter quebra de linha.".into())
    );
    assert_eq!(
        msg(e(with(
            "MENS_DESTINATARIO",
            json!("a@x.com\nBcc: espiao@mal.com")
        ))
        .await),
        Some("O campo Destinatário não pode ter quebra de linha.".into())
    );
    let big = vec![b'x'; erp_messaging::files::MAX_EMAIL / 2 + 1];
    let r = e(with(
        "arquivos",
        json!([file("a.txt", &big), file("b.txt", &big)]),
    ))
    .await;
    assert_eq!(msg(r), Some(erp_messaging::files::EMAIL_TOO_BIG.into()));
    let v = e(with(
        "arquivos",
        json!([file("Relatório (junho).pdf", b"%PDF-1.4 x")]),
    ))
    .await
    .expect("queued");
    assert_eq!(v["msg"], "E-mail agendado com sucesso!");
    let r = row(&db, c, id_of(&v)).await;
    assert_eq!(r["mens_canal"], "E");
    assert_eq!(r["mens_destinatario"], "a@x.com.br;b@y.com");
    assert_eq!(r["mens_anexo_nome"], "Relatorio_junho.pdf");
}
