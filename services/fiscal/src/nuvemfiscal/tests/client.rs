//! The client against the fake server over real HTTP on 127.0.0.1.

use std::time::{Duration, Instant};

use base64::Engine;

use super::samples::{self, CNPJ};
use super::spec::assert_matches;
use crate::nuvemfiscal::fake::{self, access_key, FakeHandle};
use crate::nuvemfiscal::types::*;
use crate::nuvemfiscal::{Config, Error, NuvemFiscal, Retry};
use crate::rejections;

async fn start() -> (NuvemFiscal, FakeHandle) {
    let (addr, handle) = fake::start().await.expect("fake server");
    let client = NuvemFiscal::new(handle.config(addr)).expect("client");
    (client, handle)
}

const WAIT: Duration = Duration::from_secs(10);

#[tokio::test]
async fn the_token_is_fetched_once_and_reused() {
    let (nf, fake) = start().await;
    let dfe = nf
        .emitir_nfe(&samples::nfe("84713012", "t1"))
        .await
        .expect("emit");
    nf.consultar_nfe(&dfe.id).await.expect("consult");
    nf.listar_nfe(CNPJ, Ambiente::Homologacao, None)
        .await
        .expect("list");
    assert_eq!(fake.token_requests(), 1);
}

#[tokio::test]
async fn a_token_is_renewed_before_it_expires() {
    let (nf, fake) = start().await;
    // Two seconds of life: renewed after one (half, for short tokens).
    fake.set_token_ttl(Duration::from_secs(2));
    nf.listar_nfe(CNPJ, Ambiente::Homologacao, None)
        .await
        .expect("list");
    nf.listar_nfe(CNPJ, Ambiente::Homologacao, None)
        .await
        .expect("list");
    assert_eq!(fake.token_requests(), 1);
    tokio::time::sleep(Duration::from_millis(1100)).await;
    nf.listar_nfe(CNPJ, Ambiente::Homologacao, None)
        .await
        .expect("list");
    assert_eq!(fake.token_requests(), 2);
}

#[tokio::test]
async fn a_401_renews_the_token_once() {
    let (nf, fake) = start().await;
    let dfe = nf
        .emitir_nfe(&samples::nfe("84713012", "t2"))
        .await
        .expect("emit");
    fake.revoke_tokens();
    nf.consultar_nfe(&dfe.id)
        .await
        .expect("consult after refresh");
    assert_eq!(fake.token_requests(), 2);
    assert_eq!(fake.requests("GET", &format!("/nfe/{}", dfe.id)), 2);
}

#[tokio::test]
async fn a_second_401_is_an_error() {
    let (nf, fake) = start().await;
    // Tokens that are dead on arrival.
    fake.set_token_ttl(Duration::ZERO);
    let err = nf.consultar_nfe("nfe_x").await.expect_err("401");
    assert!(matches!(err, Error::Api { status: 401, .. }), "{err:?}");
    assert_eq!(fake.token_requests(), 2);
    assert_eq!(fake.requests("GET", "/nfe/nfe_x"), 2);
}

#[tokio::test]
async fn wrong_credentials_are_an_auth_error() {
    let (addr, fake) = fake::start().await.expect("fake");
    let mut config = fake.config(addr);
    config.client_secret = "errado".into();
    let nf = NuvemFiscal::new(config).expect("client");
    let err = nf.consultar_nfe("nfe_x").await.expect_err("auth");
    match err {
        Error::Auth { status, message } => {
            assert_eq!(status, 401);
            assert_eq!(message, "Client ID ou Client Secret inválidos.");
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(
        fake.token_requests(),
        1,
        "a 401 of the token endpoint is not retried"
    );
}

#[tokio::test]
async fn a_consult_is_retried_after_two_503() {
    let (nf, fake) = start().await;
    let dfe = nf
        .emitir_nfe(&samples::nfe("84713012", "t3"))
        .await
        .expect("emit");
    fake.fail_next(2, 503);
    let again = nf.consultar_nfe(&dfe.id).await.expect("third try succeeds");
    assert_eq!(again.id, dfe.id);
    assert_eq!(fake.requests("GET", &format!("/nfe/{}", dfe.id)), 3);
}

#[tokio::test]
async fn a_consult_gives_up_after_the_third_503() {
    let (nf, fake) = start().await;
    fake.fail_next(3, 503);
    let err = nf.consultar_nfe("nfe_y").await.expect_err("503");
    assert!(matches!(err, Error::Api { status: 503, .. }), "{err:?}");
    assert_eq!(
        fake.requests("GET", "/nfe/nfe_y"),
        Retry::default().attempts as usize
    );
}

#[tokio::test]
async fn an_emission_is_not_retried_after_a_503() {
    let (nf, fake) = start().await;
    fake.fail_next(1, 503);
    let err = nf
        .emitir_nfe(&samples::nfe("84713012", "t4"))
        .await
        .expect_err("503");
    assert!(matches!(err, Error::Api { status: 503, .. }), "{err:?}");
    assert!(err.outcome_unknown());
    assert_eq!(fake.emissions(), 1, "sent once");
    assert_eq!(fake.documents(), 0);
}

#[tokio::test]
async fn a_lost_answer_is_found_by_referencia_instead_of_emitting_again() {
    let (nf, fake) = start().await;
    // The provider creates the document, then the answer is an error.
    fake.fail_after_handling(1, 502);
    let err = nf
        .emitir_nfe(&samples::nfe("84713012", "pedido-77"))
        .await
        .expect_err("502");
    assert!(err.outcome_unknown());
    assert_eq!(fake.emissions(), 1);
    let found = nf
        .listar_nfe(CNPJ, Ambiente::Homologacao, Some("pedido-77"))
        .await
        .expect("list");
    assert_eq!(found.data.len(), 1);
    assert_eq!(found.data[0].referencia.as_deref(), Some("pedido-77"));
    let other = nf
        .listar_nfe(CNPJ, Ambiente::Homologacao, Some("pedido-78"))
        .await
        .expect("list");
    assert!(other.data.is_empty());
    assert_eq!(fake.emissions(), 1, "no second emission");
}

#[tokio::test]
async fn a_429_is_retried_after_its_retry_after() {
    let (nf, fake) = start().await;
    fake.rate_limit_next(1, Duration::from_secs(1));
    let started = Instant::now();
    let dfe = nf
        .emitir_nfe(&samples::nfe("84713012", "t5"))
        .await
        .expect("emit");
    assert!(
        started.elapsed() >= Duration::from_secs(1),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(dfe.status, DfeStatus::Pendente);
    // Refused by the rate limit, then accepted: one document.
    assert_eq!(fake.emissions(), 2);
    assert_eq!(fake.documents(), 1);
}

#[tokio::test]
async fn a_400_is_not_retried_and_carries_the_provider_s_error() {
    let (nf, fake) = start().await;
    let mut pedido = samples::nfe("84713012", "t6");
    pedido.infNFe.dest = None;
    let err = nf.emitir_nfe(&pedido).await.expect_err("400");
    match &err {
        Error::Api { status, code, message, errors } => {
            assert_eq!(*status, 400);
            assert_eq!(code, "ValidationFailed");
            assert_eq!(
                message,
                "Validation failed: O campo 'infNFe.dest' é obrigatório."
            );
            let messages: Vec<_> = errors.iter().filter_map(|e| e.message.as_deref()).collect();
            assert_eq!(messages, ["O campo 'infNFe.dest' é obrigatório."]);
        }
        other => panic!("{other:?}"),
    }
    assert!(!err.outcome_unknown());
    assert_eq!(fake.emissions(), 1);
}

#[tokio::test]
async fn an_unreachable_provider_is_a_transport_error() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let addr = listener.local_addr().expect("addr");
    drop(listener);
    let mut config = Config::new("id", "secret");
    config.base_url = format!("http://{addr}");
    config.auth_url = format!("http://{addr}/oauth/token");
    config.retry.base_delay = Duration::from_millis(10);
    let nf = NuvemFiscal::new(config).expect("client");
    let err = nf.consultar_nfe("nfe_z").await.expect_err("refused");
    match err {
        Error::Transport(e) => assert!(e.is_connect(), "{e}"),
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn an_nfe_is_authorised_corrected_downloaded_and_cancelled() {
    let (nf, fake) = start().await;
    let pedido = samples::nfe("84713012", "venda-1");
    let dfe = nf.emitir_nfe(&pedido).await.expect("emit");
    assert_eq!(dfe.status, DfeStatus::Pendente);
    assert_eq!(dfe.valor_total, Some(samples::d("37037038039.66")));
    let chave = dfe.chave.clone().expect("chave");
    assert!(access_key::is_valid(&chave), "{chave}");
    assert_eq!(&chave[..2], "35");
    assert_eq!(&chave[2..6], "2505");
    assert_eq!(&chave[6..20], CNPJ);
    assert_eq!(&chave[20..22], "55");
    assert_eq!(&chave[22..25], "001");
    assert_eq!(&chave[25..34], "000001234");

    let dfe = nf.aguardar_nfe(&dfe.id, WAIT).await.expect("wait");
    assert_eq!(dfe.status, DfeStatus::Autorizado);
    let aut = dfe.autorizacao.clone().expect("autorizacao");
    assert_eq!(aut.codigo_status, Some(100));
    assert_eq!(aut.status, Some(EventoStatus::Registrado));
    let protocolo = aut.numero_protocolo.clone().expect("protocol");
    assert_eq!(protocolo.len(), 15);
    assert_matches("Dfe", &dfe);

    let xml = nf.baixar_xml_nfe(&dfe.id).await.expect("xml");
    let xml = String::from_utf8(xml).expect("utf-8");
    let doc = roxmltree::Document::parse(&xml).expect("well-formed XML");
    assert_eq!(doc.root_element().tag_name().name(), "nfeProc");
    let text = |tag: &str| {
        doc.descendants()
            .find(|n| n.has_tag_name(tag))
            .and_then(|n| n.text())
            .map(str::to_string)
    };
    assert_eq!(text("chNFe"), Some(chave.clone()));
    assert_eq!(text("nProt"), Some(protocolo));
    assert_eq!(text("vNF").as_deref(), Some("37037038039.66"));

    let pdf = nf.baixar_pdf_nfe(&dfe.id).await.expect("pdf");
    assert!(pdf.starts_with(b"%PDF-1.4"));
    assert!(pdf.ends_with(b"%%EOF\n"));
    assert!(String::from_utf8_lossy(&pdf).contains(&chave));

    let sync = nf.sincronizar_nfe(&dfe.id).await.expect("sync");
    assert_eq!(sync.status, Some(SincronizacaoStatus::Sincronizado));
    assert_eq!(sync.chave.as_deref(), Some(chave.as_str()));

    let cce = nf
        .carta_correcao_nfe(&dfe.id, "Peso bruto correto: 11,25 kg")
        .await
        .expect("carta");
    assert_eq!(cce.status, Some(EventoStatus::Registrado));
    assert_eq!(cce.numero_sequencial, Some(1));
    assert_eq!(cce.tipo_evento.as_deref(), Some("110110"));
    assert_matches("DfeCartaCorrecao", &cce);

    let err = nf
        .cancelar_nfe(&dfe.id, "curta")
        .await
        .expect_err("too short");
    match err {
        Error::Invalid(message) => assert_eq!(
            message,
            "A justificativa do cancelamento deve ter entre 15 e 255 caracteres."
        ),
        other => panic!("{other:?}"),
    }
    let path = format!("/nfe/{}/cancelamento", dfe.id);
    assert_eq!(fake.requests("POST", &path), 0, "refused before sending");

    let cancel = nf
        .cancelar_nfe(&dfe.id, "Pedido cancelado pelo cliente")
        .await
        .expect("cancel");
    assert_eq!(cancel.status, Some(EventoStatus::Registrado));
    assert_eq!(cancel.codigo_status, Some(135));
    assert_eq!(cancel.chave_acesso.as_deref(), Some(chave.as_str()));
    assert_matches("DfeCancelamento", &cancel);
    let dfe = nf.consultar_nfe(&dfe.id).await.expect("consult");
    assert_eq!(dfe.status, DfeStatus::Cancelado);
}

#[tokio::test]
async fn ncm_00000000_is_rejected_with_778_and_explained() {
    let (nf, _fake) = start().await;
    let dfe = nf
        .emitir_nfe(&samples::nfe("00000000", "ncm-ruim"))
        .await
        .expect("emit");
    let dfe = nf.aguardar_nfe(&dfe.id, WAIT).await.expect("wait");
    assert_eq!(dfe.status, DfeStatus::Rejeitado);
    let aut = dfe.autorizacao.expect("autorizacao");
    assert_eq!(aut.codigo_status, Some(778));
    let motivo = aut.motivo_status.unwrap_or_default();
    assert_eq!(motivo, "Rejeição: Informado NCM inexistente");
    let explanation =
        rejections::explain(&aut.codigo_status.unwrap_or_default().to_string(), &motivo);
    assert!(explanation.known);
    assert_eq!(explanation.route, Some("/ncm"));
    assert_eq!(explanation.field, Some("NCM do produto"));
    assert!(explanation
        .explanation
        .starts_with("O NCM do produto não existe"));
    // A rejected NF-e has no authorised XML.
    let err = nf.baixar_xml_nfe(&dfe.id).await.expect_err("no xml");
    assert_eq!(err.status(), Some(400));
}

#[tokio::test]
async fn a_cte_and_an_mdfe_go_through_their_life() {
    let (nf, fake) = start().await;
    let cte = nf
        .emitir_cte(&samples::cte("frete-1"))
        .await
        .expect("emit cte");
    let cte = nf.aguardar_cte(&cte.id, WAIT).await.expect("wait cte");
    assert_eq!(cte.status, DfeStatus::Autorizado);
    let chave = cte.chave.clone().expect("chave");
    assert!(access_key::is_valid(&chave));
    assert_eq!(&chave[20..22], "57");
    let xml = String::from_utf8(nf.baixar_xml_cte(&cte.id).await.expect("xml")).expect("utf-8");
    let doc = roxmltree::Document::parse(&xml).expect("XML");
    assert_eq!(doc.root_element().tag_name().name(), "cteProc");
    assert!(nf
        .baixar_pdf_cte(&cte.id)
        .await
        .expect("pdf")
        .starts_with(b"%PDF"));
    let found = nf
        .listar_cte(CNPJ, Ambiente::Homologacao, Some("frete-1"))
        .await
        .expect("list");
    assert_eq!(found.data.len(), 1);
    let cancel = nf
        .cancelar_cte(&cte.id, "Frete cancelado pelo tomador")
        .await
        .expect("cancel");
    assert_eq!(cancel.status, Some(EventoStatus::Registrado));
    assert_eq!(
        nf.consultar_cte(&cte.id).await.expect("consult").status,
        DfeStatus::Cancelado
    );

    let mdfe = nf
        .emitir_mdfe(&samples::mdfe("viagem-1"))
        .await
        .expect("emit mdfe");
    let mdfe = nf.aguardar_mdfe(&mdfe.id, WAIT).await.expect("wait mdfe");
    assert_eq!(mdfe.status, DfeStatus::Autorizado);
    assert_eq!(&mdfe.chave.clone().expect("chave")[20..22], "58");
    let encerramento = MdfePedidoEncerramento {
        data_encerramento: None,
        uf: "MG".into(),
        codigo_municipio: "3106200".into(),
    };
    let closed = nf
        .encerrar_mdfe(&mdfe.id, &encerramento)
        .await
        .expect("close");
    assert_eq!(closed.status, Some(EventoStatus::Registrado));
    assert_eq!(closed.uf.as_deref(), Some("MG"));
    assert_matches("MdfeEncerramento", &closed);
    assert_eq!(
        nf.consultar_mdfe(&mdfe.id).await.expect("consult").status,
        DfeStatus::Encerrado
    );
    let sync = nf.sincronizar_mdfe(&mdfe.id).await.expect("sync");
    assert_eq!(sync.codigo_status, Some(132));
    let xml = nf.baixar_xml_mdfe(&mdfe.id).await.expect("xml");
    assert!(String::from_utf8_lossy(&xml).contains("<mdfeProc"));
    assert!(nf
        .baixar_pdf_mdfe(&mdfe.id)
        .await
        .expect("pdf")
        .starts_with(b"%PDF"));
    let bad = MdfePedidoEncerramento { uf: "Minas".into(), ..encerramento };
    assert!(matches!(
        nf.encerrar_mdfe(&mdfe.id, &bad).await,
        Err(Error::Invalid(_))
    ));
    assert_eq!(fake.emissions(), 2);
}

#[tokio::test]
async fn a_company_is_registered_configured_and_removed() {
    let (nf, fake) = start().await;
    let created = nf
        .cadastrar_empresa(&samples::empresa())
        .await
        .expect("create");
    assert!(created.created_at.is_some());
    assert_eq!(
        nf.consultar_empresa(CNPJ)
            .await
            .expect("read")
            .nome_razao_social,
        "Empresa de Teste Ltda"
    );
    let again = nf
        .cadastrar_empresa(&samples::empresa())
        .await
        .expect_err("duplicate");
    assert_eq!(again.status(), Some(409));
    assert_eq!(
        nf.listar_empresas(Some(CNPJ))
            .await
            .expect("list")
            .data
            .len(),
        1
    );

    let mut changed = samples::empresa();
    changed.nome_fantasia = Some("Nova Fantasia".into());
    let changed = nf.alterar_empresa(CNPJ, &changed).await.expect("update");
    assert_eq!(changed.nome_fantasia.as_deref(), Some("Nova Fantasia"));

    let config = EmpresaConfigNfe { CRT: Some(1), ambiente: Ambiente::Homologacao };
    assert_eq!(
        nf.alterar_config_nfe(CNPJ, &config)
            .await
            .expect("nfe config"),
        config
    );
    assert_eq!(
        nf.consultar_config_nfe(CNPJ).await.expect("read config"),
        config
    );
    let nfce = EmpresaConfigNfce {
        CRT: Some(1),
        sefaz: EmpresaConfigNfceSefaz { id_csc: 1, csc: "CSC-TESTE".into() },
        ambiente: Ambiente::Homologacao,
    };
    assert_eq!(
        nf.alterar_config_nfce(CNPJ, &nfce).await.expect("nfce"),
        nfce
    );
    let cte = EmpresaConfigCte { CRT: Some(3), ambiente: Ambiente::Homologacao };
    assert_eq!(nf.alterar_config_cte(CNPJ, &cte).await.expect("cte"), cte);
    let mdfe = EmpresaConfigMdfe { ambiente: Ambiente::Homologacao };
    assert_eq!(
        nf.alterar_config_mdfe(CNPJ, &mdfe).await.expect("mdfe"),
        mdfe
    );

    let pfx = base64::engine::general_purpose::STANDARD.encode(b"not really a pfx");
    let cert = nf
        .cadastrar_certificado(CNPJ, &pfx, "senha")
        .await
        .expect("certificate");
    assert_eq!(cert.cpf_cnpj.as_deref(), Some(CNPJ));
    assert!(cert.not_valid_after > cert.not_valid_before);
    assert_eq!(
        nf.consultar_certificado(CNPJ).await.expect("read cert"),
        cert
    );
    assert!(matches!(
        nf.cadastrar_certificado(CNPJ, &pfx, "").await,
        Err(Error::Invalid(_))
    ));
    nf.excluir_certificado(CNPJ).await.expect("delete cert");

    let png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec();
    nf.enviar_logotipo(CNPJ, png).await.expect("logo");
    let logo = format!("/empresas/{CNPJ}/logotipo");
    assert_eq!(fake.requests("PUT", &logo), 1);
    let gif = b"GIF89a".to_vec();
    assert!(matches!(
        nf.enviar_logotipo(CNPJ, gif).await,
        Err(Error::Invalid(_))
    ));
    let big = [b"\xFF\xD8\xFF".as_slice(), &vec![0u8; 200 * 1024]].concat();
    assert!(matches!(
        nf.enviar_logotipo(CNPJ, big).await,
        Err(Error::Invalid(_))
    ));
    assert_eq!(fake.requests("PUT", &logo), 1, "refused before sending");
    nf.excluir_logotipo(CNPJ).await.expect("delete logo");

    nf.excluir_empresa(CNPJ).await.expect("delete");
    nf.excluir_empresa(CNPJ)
        .await
        .expect("deleting again is fine");
    let gone = nf.consultar_empresa(CNPJ).await.expect_err("404");
    assert_eq!(gone.status(), Some(404));
}
