//! The billing reports over the sales and their NF-e: the orders invoiced in the
//! period per document series (`/seriesdocumento`: how many, the first and the
//! last number, how many with an authorised NF-e, products, services and total)
//! and the accountant's billing (`/faturamentocontabil/reports`: each invoiced
//! order with its customer's CPF/CNPJ and its NF-e, number, series and key, a
//! cancelled one marked), and the invoiced orders by payment method
//! (`/formaspagamento/reports`, the screen /relatoriosformaspagamento); the
//! goods out on the open conditional sales that left in the period
//! (`/condicional/reports`: per conditional, each product out, returned and
//! pending, with the values returned and pending at the line's price).

use async_trait::async_trait;
use erp_platform::db::Tx;
use erp_platform::Result;
use serde_json::{Map, Value};

use crate::engine::{col, sum, Filter, FilterKind, Kind, Params, Report, Source};
use crate::finance::CUSTOMER;
use crate::rows;

const NFE: Filter = Filter {
    field: "NFE",
    label: "NF-e",
    kind: FilterKind::Options(&[
        ("T", "Todos os pedidos"),
        ("C", "Só com NF-e autorizada"),
        ("S", "Só sem NF-e"),
    ]),
};

/// The sale's NF-e (`n`), when fiscal told of one.
const NFE_JOIN: &str =
    "LEFT JOIN reports.vendasnfe n ON n.client_id = v.client_id AND n.emp_id = v.emp_id
                            AND n.pedf_id = v.pedf_id AND n.serie = v.serie";

pub struct Series;

#[async_trait]
impl Source for Series {
    async fn rows(
        &self,
        tx: &mut Tx,
        client: i64,
        emp: i64,
        p: &Params,
    ) -> Result<Vec<Map<String, Value>>> {
        let sql = format!(
            "SELECT v.serie, count(*) AS pedidos, min(v.pedf_id) AS primeiro, max(v.pedf_id) AS ultimo,
                    count(n.numero) FILTER (WHERE NOT n.cancelada) AS nfes,
                    sum(v.tot_prod) AS produtos, sum(v.tot_serv) AS servicos, sum(v.total) AS total
             FROM reports.vendas v {NFE_JOIN}
             WHERE v.client_id = $1 AND v.emp_id = $2 AND v.dta BETWEEN $3 AND $4
             GROUP BY v.serie ORDER BY v.serie"
        );
        let found = sqlx::query(&sql)
            .bind(client)
            .bind(emp)
            .bind(p.from)
            .bind(p.to)
            .fetch_all(&mut **tx)
            .await?;
        rows::all(&found)
    }
}

pub struct AccountantBilling;

#[async_trait]
impl Source for AccountantBilling {
    async fn rows(
        &self,
        tx: &mut Tx,
        client: i64,
        emp: i64,
        p: &Params,
    ) -> Result<Vec<Map<String, Value>>> {
        let sql = format!(
            "SELECT v.dta AS data, v.pedf_id || '/' || v.serie AS pedido,
                    CASE WHEN n.numero IS NULL THEN ''
                         ELSE n.numero || '/' || n.nfe_serie || CASE WHEN n.cancelada THEN ' (cancelada)' ELSE '' END
                    END AS nfe,
                    coalesce(n.chave, '') AS chave,
                    coalesce(c.descricao, v.cli_nome, 'Cliente ' || v.cli_id) AS cliente,
                    coalesce(nullif(c.cgc, ''), nullif(c.cpf, ''), '') AS cpf_cnpj,
                    v.tot_prod AS produtos, v.tot_serv AS servicos, v.total
             FROM reports.vendas v {NFE_JOIN}
             LEFT JOIN reports.clientes c ON c.client_id = v.client_id AND c.emp_id = v.emp_id AND c.cli_id = v.cli_id
             WHERE v.client_id = $1 AND v.emp_id = $2 AND v.dta BETWEEN $3 AND $4
               AND ($5::bigint IS NULL OR v.cli_id = $5)
               AND CASE coalesce($6, 'T') WHEN 'C' THEN n.numero IS NOT NULL AND NOT n.cancelada
                                          WHEN 'S' THEN n.numero IS NULL OR n.cancelada ELSE true END
             ORDER BY v.dta, v.serie, v.pedf_id"
        );
        let found = sqlx::query(&sql)
            .bind(client)
            .bind(emp)
            .bind(p.from)
            .bind(p.to)
            .bind(p.id("CLI_ID"))
            .bind(p.text("NFE"))
            .fetch_all(&mut **tx)
            .await?;
        rows::all(&found)
    }
}

const METHOD: Filter = Filter {
    field: "FRMP_ID",
    label: "Forma de Pagamento",
    kind: FilterKind::Reference("formapagamento"),
};

pub struct ByPaymentMethod;

#[async_trait]
impl Source for ByPaymentMethod {
    async fn rows(
        &self,
        tx: &mut Tx,
        client: i64,
        emp: i64,
        p: &Params,
    ) -> Result<Vec<Map<String, Value>>> {
        let found = sqlx::query(
            "SELECT coalesce(f.descricao, CASE WHEN v.frmp_id IS NULL THEN 'Sem forma de pagamento'
                                               ELSE 'Forma ' || v.frmp_id END) AS forma,
                    v.dta AS data, v.pedf_id || '/' || v.serie AS pedido,
                    coalesce(c.descricao, v.cli_nome, 'Cliente ' || v.cli_id) AS cliente, v.total
             FROM reports.vendas v
             LEFT JOIN reports.formaspagamento f ON f.client_id = v.client_id AND f.emp_id = 0 AND f.frmp_id = v.frmp_id
             LEFT JOIN reports.clientes c ON c.client_id = v.client_id AND c.emp_id = v.emp_id AND c.cli_id = v.cli_id
             WHERE v.client_id = $1 AND v.emp_id = $2 AND v.dta BETWEEN $3 AND $4
               AND ($5::bigint IS NULL OR v.frmp_id = $5) AND ($6::bigint IS NULL OR v.cli_id = $6)
             ORDER BY forma, v.dta, v.serie, v.pedf_id",
        )
        .bind(client)
        .bind(emp)
        .bind(p.from)
        .bind(p.to)
        .bind(p.id("FRMP_ID"))
        .bind(p.id("CLI_ID"))
        .fetch_all(&mut **tx)
        .await?;
        rows::all(&found)
    }
}

pub struct OpenConditionals;

#[async_trait]
impl Source for OpenConditionals {
    async fn rows(
        &self,
        tx: &mut Tx,
        client: i64,
        emp: i64,
        p: &Params,
    ) -> Result<Vec<Map<String, Value>>> {
        let found = sqlx::query(
            "SELECT 'Condicional ' || c.cond_id || ' - ' || coalesce(cl.descricao, c.cli_nome, 'Cliente ' || c.cli_id)
                        AS condicional,
                    c.dta_saida AS saida, c.dta_retorno AS retorno,
                    coalesce(i.descricao, 'Produto ' || i.prod_id) AS produto,
                    i.qtde AS qtde_saida, i.devolvida AS qtde_devolvida, i.qtde - i.devolvida AS qtde_pendente,
                    i.vlr_unit, round(i.devolvida * i.vlr_unit, 2) AS vlr_devolvido,
                    round((i.qtde - i.devolvida) * i.vlr_unit, 2) AS vlr_pendente
             FROM reports.condicionais c
             JOIN reports.condicionaisitens i ON i.client_id = c.client_id AND i.emp_id = c.emp_id AND i.cond_id = c.cond_id
             LEFT JOIN reports.clientes cl ON cl.client_id = c.client_id AND cl.emp_id = c.emp_id AND cl.cli_id = c.cli_id
             WHERE c.client_id = $1 AND c.emp_id = $2 AND c.situacao = 'A' AND c.dta_saida BETWEEN $3 AND $4
               AND ($5::bigint IS NULL OR c.cli_id = $5)
             ORDER BY c.dta_saida, c.cond_id, i.item",
        )
        .bind(client)
        .bind(emp)
        .bind(p.from)
        .bind(p.to)
        .bind(p.id("CLI_ID"))
        .fetch_all(&mut **tx)
        .await?;
        rows::all(&found)
    }
}

/// The billing reports.
pub fn reports() -> Vec<Report> {
    vec![
        Report {
            name: "seriesdocumento",
            title: "Séries de Documento",
            // A call of the legacy catalogue with no screen of its own.
            route: "",
            path: "/seriesdocumento",
            landscape: false,
            filters: vec![],
            columns: vec![
                col("SERIE", "Série", Kind::Text, 16.0),
                sum("PEDIDOS", "Pedidos", Kind::Int, 18.0),
                col("PRIMEIRO", "Primeiro", Kind::Int, 18.0),
                col("ULTIMO", "Último", Kind::Int, 18.0),
                sum("NFES", "NF-e", Kind::Int, 16.0),
                sum("PRODUTOS", "Produtos", Kind::Money, 32.0),
                sum("SERVICOS", "Serviços", Kind::Money, 32.0),
                sum("TOTAL", "Total", Kind::Money, 34.0),
            ],
            group_by: None,
            monthly: false,
            source: Box::new(Series),
        },
        Report {
            name: "faturamentocontabil",
            title: "Faturamento Contábil",
            route: "/relatoriosfaturamentocontabil",
            path: "/faturamentocontabil/reports",
            landscape: true,
            filters: vec![CUSTOMER, NFE],
            columns: vec![
                col("DATA", "Data", Kind::Date, 18.0),
                col("PEDIDO", "Pedido", Kind::Text, 18.0),
                col("NFE", "NF-e", Kind::Text, 24.0),
                col("CHAVE", "Chave de Acesso", Kind::Text, 72.0),
                col("CLIENTE", "Cliente", Kind::Text, 50.0),
                col("CPF_CNPJ", "CPF/CNPJ", Kind::Text, 29.0),
                sum("PRODUTOS", "Produtos", Kind::Money, 22.0),
                sum("SERVICOS", "Serviços", Kind::Money, 22.0),
                sum("TOTAL", "Total", Kind::Money, 22.0),
            ],
            group_by: None,
            monthly: false,
            source: Box::new(AccountantBilling),
        },
        Report {
            name: "formaspagamento",
            title: "Vendas por Forma de Pagamento",
            route: "/relatoriosformaspagamento",
            path: "/formaspagamento/reports",
            landscape: false,
            filters: vec![METHOD, CUSTOMER],
            columns: vec![
                col("FORMA", "Forma de Pagamento", Kind::Text, 40.0),
                col("DATA", "Data", Kind::Date, 20.0),
                col("PEDIDO", "Pedido", Kind::Text, 24.0),
                col("CLIENTE", "Cliente", Kind::Text, 76.0),
                sum("TOTAL", "Total", Kind::Money, 30.0),
            ],
            group_by: Some("FORMA"),
            monthly: false,
            source: Box::new(ByPaymentMethod),
        },
        Report {
            name: "condicional",
            title: "Condicionais em Aberto",
            // A call of the legacy catalogue; the conditional screen has no report tab.
            route: "",
            path: "/condicional/reports",
            landscape: true,
            filters: vec![CUSTOMER],
            columns: vec![
                col("CONDICIONAL", "Condicional", Kind::Text, 60.0),
                col("SAIDA", "Saída", Kind::Date, 18.0),
                col("RETORNO", "Retorno", Kind::Date, 18.0),
                col("PRODUTO", "Produto", Kind::Text, 55.0),
                sum("QTDE_SAIDA", "Saiu", Kind::Quantity, 18.0),
                sum("QTDE_DEVOLVIDA", "Voltou", Kind::Quantity, 18.0),
                sum("QTDE_PENDENTE", "Pendente", Kind::Quantity, 18.0),
                col("VLR_UNIT", "Unitário", Kind::Money, 20.0),
                sum("VLR_DEVOLVIDO", "Valor Devolvido", Kind::Money, 26.0),
                sum("VLR_PENDENTE", "Valor Pendente", Kind::Money, 26.0),
            ],
            group_by: Some("CONDICIONAL"),
            monthly: false,
            source: Box::new(OpenConditionals),
        },
    ]
}
