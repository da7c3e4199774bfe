//! The purchase reports over the purchases' and finance's facts: the purchases
//! of the period (`/compras/reports`), the suppliers' ledger
//! (`/razaofornecedor/reports`: per supplier, the balance before the period —
//! purchases less payments — then each purchase and each payment of the period
//! with the running balance) and the suppliers with what they sold and what is
//! owed to them (`/fornecedores/reports`).
//!
//! A payment is the part of a payable its settlement took (interest, fine and
//! discount are the cost of paying, not of what was bought); cancelled purchases
//! and reversed settlements are left out.

use async_trait::async_trait;
use erp_platform::db::Tx;
use erp_platform::Result;
use serde_json::{Map, Value};

use crate::engine::{col, sum, Filter, FilterKind, Kind, Params, Report, Source};
use crate::finance::SUPPLIER;
use crate::rows;

const CANCELLED: Filter = Filter {
    field: "CANCELADAS",
    label: "Canceladas",
    kind: FilterKind::Options(&[
        ("N", "Sem as canceladas"),
        ("S", "Só as canceladas"),
        ("T", "Todas"),
    ]),
};
pub const STATE: Filter = Filter { field: "UF", label: "UF", kind: FilterKind::Text };
pub const ONLY_ACTIVE: Filter = Filter {
    field: "MOVIMENTO",
    label: "Movimento no período",
    kind: FilterKind::Options(&[("S", "Só com movimento"), ("T", "Todos")]),
};

pub struct Purchases;

#[async_trait]
impl Source for Purchases {
    async fn rows(
        &self,
        tx: &mut Tx,
        client: i64,
        emp: i64,
        p: &Params,
    ) -> Result<Vec<Map<String, Value>>> {
        let found = sqlx::query(
            "SELECT c.dta_entrada AS data, c.comp_id AS compra,
                    coalesce(c.numero, '') || CASE WHEN coalesce(c.serie, '') <> '' THEN '/' || c.serie ELSE '' END AS nota,
                    coalesce(f.descricao, c.forn_nome, 'Fornecedor ' || c.forn_id) AS fornecedor,
                    coalesce(h.descricao, '') AS centro_custo, c.itens::bigint AS itens,
                    CASE WHEN c.cancelada THEN 'Cancelada' ELSE 'Finalizada' END AS situacao, c.total
             FROM reports.compras c
             LEFT JOIN reports.fornecedores f ON f.client_id = c.client_id AND f.emp_id = 0 AND f.forn_id = c.forn_id
             LEFT JOIN reports.centroscusto h ON h.client_id = c.client_id AND h.emp_id = c.emp_id AND h.hisp_id = c.hisp_id
             WHERE c.client_id = $1 AND c.emp_id = $2 AND c.dta_entrada BETWEEN $3 AND $4
               AND CASE coalesce($5, 'N') WHEN 'N' THEN NOT c.cancelada WHEN 'S' THEN c.cancelada ELSE true END
               AND ($6::bigint IS NULL OR c.forn_id = $6)
             ORDER BY c.dta_entrada, c.comp_id",
        )
        .bind(client)
        .bind(emp)
        .bind(p.from)
        .bind(p.to)
        .bind(p.text("CANCELADAS"))
        .bind(p.id("FORN_ID"))
        .fetch_all(&mut **tx)
        .await?;
        rows::all(&found)
    }
}

/// The suppliers' ledger (see the module's doc).
pub struct SupplierLedger;

/// Purchases (`c`) and payments (`b` of payables `t`) of supplier `s` as ledger
/// lines: (supplier, day, order, history, purchase, payment, id).
const LINES: &str = "
    SELECT c.forn_id AS forn, c.dta_entrada AS dta, 1 AS ord,
           'Compra ' || c.comp_id || CASE WHEN coalesce(c.numero, '') <> '' THEN ' - NF ' || c.numero ELSE '' END AS hist,
           c.total AS compra, NULL::numeric AS pagto, c.comp_id AS id
    FROM reports.compras c
    WHERE c.client_id = $1 AND c.emp_id = $2 AND NOT c.cancelada
    UNION ALL
    SELECT t.pessoa_id, b.dta, 2,
           'Pagamento título ' || t.tit_id || ' - parcela ' || t.parcela || '/' || t.parcelas
               || CASE WHEN coalesce(t.documento, '') <> '' THEN ' - Doc. ' || t.documento ELSE '' END,
           NULL, b.valor, b.baix_id
    FROM reports.baixas b
    JOIN reports.titulos t ON t.client_id = b.client_id AND t.emp_id = b.emp_id AND t.tipo = b.tipo AND t.tit_id = b.tit_id
    WHERE b.client_id = $1 AND b.emp_id = $2 AND b.tipo = 'P' AND NOT b.estornada";

#[async_trait]
impl Source for SupplierLedger {
    async fn rows(
        &self,
        tx: &mut Tx,
        client: i64,
        emp: i64,
        p: &Params,
    ) -> Result<Vec<Map<String, Value>>> {
        let sql = format!(
            "WITH l AS ({LINES}),
             s AS (SELECT DISTINCT forn FROM l WHERE dta BETWEEN $3 AND $4 AND ($5::bigint IS NULL OR forn = $5))
             SELECT coalesce(f.descricao, 'Fornecedor ' || s.forn) AS fornecedor, s.forn AS forn_id, 0 AS ord,
                    NULL::date AS data, 'Saldo anterior' AS historico, NULL::numeric AS compras,
                    NULL::numeric AS pagamentos,
                    coalesce((SELECT sum(coalesce(l.compra, 0) - coalesce(l.pagto, 0)) FROM l
                              WHERE l.forn = s.forn AND l.dta < $3), 0) AS saldo_anterior, 0::bigint AS id
             FROM s LEFT JOIN reports.fornecedores f ON f.client_id = $1 AND f.emp_id = 0 AND f.forn_id = s.forn
             UNION ALL
             SELECT coalesce(f.descricao, 'Fornecedor ' || l.forn), l.forn, l.ord, l.dta, l.hist, l.compra, l.pagto,
                    NULL, l.id
             FROM l LEFT JOIN reports.fornecedores f ON f.client_id = $1 AND f.emp_id = 0 AND f.forn_id = l.forn
             WHERE l.dta BETWEEN $3 AND $4 AND ($5::bigint IS NULL OR l.forn = $5)
             ORDER BY fornecedor, forn_id, data NULLS FIRST, ord, id"
        );
        let found = sqlx::query(&sql)
            .bind(client)
            .bind(emp)
            .bind(p.from)
            .bind(p.to)
            .bind(p.id("FORN_ID"))
            .fetch_all(&mut **tx)
            .await?;
        let mut out = rows::all(&found)?;
        rows::running(&mut out, "FORN_ID", "COMPRAS", "PAGAMENTOS");
        for r in &mut out {
            r.remove("ORD");
            r.remove("ID");
        }
        Ok(out)
    }
}

/// The suppliers, their purchases in the period and their open payables.
pub struct Suppliers;

#[async_trait]
impl Source for Suppliers {
    async fn rows(
        &self,
        tx: &mut Tx,
        client: i64,
        emp: i64,
        p: &Params,
    ) -> Result<Vec<Map<String, Value>>> {
        let found = sqlx::query(
            "SELECT * FROM (
                 SELECT f.forn_id, coalesce(f.descricao, '') AS fornecedor, coalesce(f.documento, '') AS cnpj,
                        coalesce(f.cidade, '') AS cidade, coalesce(f.uf, '') AS uf, coalesce(f.fone, '') AS fone,
                        (SELECT count(*) FROM reports.compras c WHERE c.client_id = f.client_id AND c.emp_id = $2
                           AND c.forn_id = f.forn_id AND NOT c.cancelada AND c.dta_entrada BETWEEN $3 AND $4) AS compras,
                        coalesce((SELECT sum(c.total) FROM reports.compras c WHERE c.client_id = f.client_id
                           AND c.emp_id = $2 AND c.forn_id = f.forn_id AND NOT c.cancelada
                           AND c.dta_entrada BETWEEN $3 AND $4), 0) AS valor_compras,
                        coalesce((SELECT sum(t.saldo) FROM reports.titulos t WHERE t.client_id = f.client_id
                           AND t.emp_id = $2 AND t.tipo = 'P' AND t.pessoa_id = f.forn_id AND t.situacao <> 'C'), 0)
                           AS saldo_pagar
                 FROM reports.fornecedores f
                 WHERE f.client_id = $1 AND f.emp_id = 0 AND NOT f.excluido
                   AND ($5::text IS NULL OR upper(f.uf) = upper($5)) AND ($6::bigint IS NULL OR f.forn_id = $6)) x
             WHERE coalesce($7, 'S') = 'T' OR x.compras > 0 OR x.saldo_pagar <> 0
             ORDER BY x.fornecedor, x.forn_id",
        )
        .bind(client)
        .bind(emp)
        .bind(p.from)
        .bind(p.to)
        .bind(p.text("UF"))
        .bind(p.id("FORN_ID"))
        .bind(p.text("MOVIMENTO"))
        .fetch_all(&mut **tx)
        .await?;
        rows::all(&found)
    }
}

/// The purchase reports.
pub fn reports() -> Vec<Report> {
    vec![
        Report {
            name: "compras",
            title: "Relatório de Compras",
            route: "/relatorioscompras",
            path: "/compras/reports",
            landscape: false,
            filters: vec![SUPPLIER, CANCELLED],
            columns: vec![
                col("DATA", "Entrada", Kind::Date, 18.0),
                col("COMPRA", "Compra", Kind::Int, 14.0),
                col("NOTA", "Nota Fiscal", Kind::Text, 20.0),
                col("FORNECEDOR", "Fornecedor", Kind::Text, 56.0),
                col("CENTRO_CUSTO", "Centro de Custo", Kind::Text, 28.0),
                col("ITENS", "Itens", Kind::Int, 10.0),
                col("SITUACAO", "Situação", Kind::Text, 20.0),
                sum("TOTAL", "Total", Kind::Money, 24.0),
            ],
            group_by: None,
            monthly: false,
            source: Box::new(Purchases),
        },
        Report {
            name: "razaofornecedor",
            title: "Razão de Fornecedores",
            route: "/relatoriosrazaofornecedores",
            path: "/razaofornecedor/reports",
            landscape: false,
            filters: vec![SUPPLIER],
            columns: vec![
                col("FORNECEDOR", "Fornecedor", Kind::Text, 40.0),
                col("FORN_ID", "Código", Kind::Int, 0.0),
                col("DATA", "Data", Kind::Date, 18.0),
                col("HISTORICO", "Histórico", Kind::Text, 60.0),
                sum("COMPRAS", "Compras", Kind::Money, 24.0),
                sum("PAGAMENTOS", "Pagamentos", Kind::Money, 24.0),
                col("SALDO", "Saldo", Kind::Money, 24.0),
            ],
            group_by: Some("FORNECEDOR"),
            monthly: false,
            source: Box::new(SupplierLedger),
        },
        Report {
            name: "fornecedores",
            title: "Relatório de Fornecedores",
            route: "/relatoriosfornecedores",
            path: "/fornecedores/reports",
            landscape: true,
            filters: vec![SUPPLIER, STATE, ONLY_ACTIVE],
            columns: vec![
                col("FORN_ID", "Código", Kind::Int, 14.0),
                col("FORNECEDOR", "Fornecedor", Kind::Text, 74.0),
                col("CNPJ", "CPF/CNPJ", Kind::Text, 32.0),
                col("CIDADE", "Cidade", Kind::Text, 36.0),
                col("UF", "UF", Kind::Text, 9.0),
                col("FONE", "Telefone", Kind::Text, 30.0),
                col("COMPRAS", "Compras", Kind::Int, 20.0),
                sum("VALOR_COMPRAS", "Valor Comprado", Kind::Money, 31.0),
                sum("SALDO_PAGAR", "A Pagar", Kind::Money, 31.0),
            ],
            group_by: None,
            monthly: false,
            source: Box::new(Suppliers),
        },
    ]
}
