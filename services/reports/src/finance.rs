//! The finance reports over finance's facts: receivables (`/contasReceber/reports`)
//! and payables (`/pagamentos/reports`) due in the period with what is left of
//! them, the receipts of the period (`/recebimentos/reports`: settlements of
//! receivables, reversed ones left out) and the bank movements of the period with
//! each account's opening balance and running balance
//! (`/movimentacaobancaria/reports`).

use async_trait::async_trait;
use erp_platform::db::Tx;
use erp_platform::Result;
use serde_json::{Map, Value};

use crate::engine::{col, sum, Filter, FilterKind, Kind, Params, Report, Source};
use crate::rows;

pub const CUSTOMER: Filter = Filter {
    field: "CLI_ID",
    label: "Cliente",
    kind: FilterKind::Reference("clientes"),
};
pub const SUPPLIER: Filter = Filter {
    field: "FORN_ID",
    label: "Fornecedor",
    kind: FilterKind::Reference("fornecedor"),
};
pub const BANK: Filter = Filter {
    field: "BCO_ID",
    label: "Conta Bancária",
    kind: FilterKind::Reference("banco"),
};
const CENTRE: Filter = Filter {
    field: "HISP_ID",
    label: "Centro de Custo",
    kind: FilterKind::Reference("historicopadrao"),
};
const METHOD: Filter = Filter {
    field: "FRMP_ID",
    label: "Forma de Pagamento",
    kind: FilterKind::Reference("formapagamento"),
};
const STANDING: Filter = Filter {
    field: "SITUACAO",
    label: "Situação",
    kind: FilterKind::Options(&[("A", "Em aberto"), ("Q", "Pagos"), ("T", "Todos")]),
};

/// Titles of one side due in the period: open ones (with a balance) unless
/// `SITUACAO` says paid (`Q`) or all (`T`); cancelled ones never.
pub struct Titles {
    /// "R" receivables, "P" payables.
    pub side: &'static str,
}

#[async_trait]
impl Source for Titles {
    async fn rows(
        &self,
        tx: &mut Tx,
        client: i64,
        emp: i64,
        p: &Params,
    ) -> Result<Vec<Map<String, Value>>> {
        let person = if self.side == "R" {
            "LEFT JOIN reports.clientes c ON c.client_id = t.client_id AND c.emp_id = t.emp_id AND c.cli_id = t.pessoa_id"
        } else {
            "LEFT JOIN reports.fornecedores c ON c.client_id = t.client_id AND c.emp_id = 0 AND c.forn_id = t.pessoa_id"
        };
        let person_id = if self.side == "R" {
            "CLI_ID"
        } else {
            "FORN_ID"
        };
        let sql = format!(
            "SELECT t.dta_vcto AS vencimento, t.dta_emis AS emissao, t.tit_id AS titulo,
                    coalesce(t.documento, '') AS documento, t.parcela || '/' || t.parcelas AS parcela,
                    coalesce(c.descricao, t.pessoa_nome, 'Pessoa ' || t.pessoa_id) AS pessoa,
                    coalesce(h.descricao, '') AS centro_custo,
                    t.valor, t.pago, t.saldo,
                    CASE WHEN t.saldo > 0 AND t.dta_vcto < (now() AT TIME ZONE 'America/Sao_Paulo')::date
                         THEN ((now() AT TIME ZONE 'America/Sao_Paulo')::date - t.dta_vcto)::bigint ELSE 0 END AS dias_atraso
             FROM reports.titulos t {person}
             LEFT JOIN reports.centroscusto h ON h.client_id = t.client_id AND h.emp_id = t.emp_id AND h.hisp_id = t.hisp_id
             WHERE t.client_id = $1 AND t.emp_id = $2 AND t.tipo = $3 AND t.dta_vcto BETWEEN $4 AND $5
               AND t.situacao <> 'C'
               AND CASE coalesce($6, 'A') WHEN 'A' THEN t.saldo > 0 WHEN 'Q' THEN t.saldo = 0 ELSE true END
               AND ($7::bigint IS NULL OR t.pessoa_id = $7) AND ($8::bigint IS NULL OR t.hisp_id = $8)
             ORDER BY t.dta_vcto, pessoa, t.tit_id"
        );
        let found = sqlx::query(&sql)
            .bind(client)
            .bind(emp)
            .bind(self.side)
            .bind(p.from)
            .bind(p.to)
            .bind(p.text("SITUACAO"))
            .bind(p.id(person_id))
            .bind(p.id("HISP_ID"))
            .fetch_all(&mut **tx)
            .await?;
        let mut out = rows::all(&found)?;
        let name = if self.side == "R" {
            "CLIENTE"
        } else {
            "FORNECEDOR"
        };
        for r in &mut out {
            if let Some(v) = r.remove("PESSOA") {
                r.insert(name.into(), v);
            }
        }
        Ok(out)
    }
}

/// Settlements of one side in the period, reversed ones left out.
pub struct Settlements {
    pub side: &'static str,
}

#[async_trait]
impl Source for Settlements {
    async fn rows(
        &self,
        tx: &mut Tx,
        client: i64,
        emp: i64,
        p: &Params,
    ) -> Result<Vec<Map<String, Value>>> {
        let found = sqlx::query(
            "SELECT b.dta AS data, b.tit_id AS titulo, coalesce(t.documento, '') AS documento,
                    coalesce(c.descricao, t.pessoa_nome, 'Cliente ' || t.pessoa_id) AS cliente,
                    coalesce(k.descricao, '') AS banco, coalesce(f.descricao, '') AS forma_pagamento,
                    b.valor, b.juros + b.multa AS acrescimos, b.desconto, b.total
             FROM reports.baixas b
             LEFT JOIN reports.titulos t ON t.client_id = b.client_id AND t.emp_id = b.emp_id AND t.tipo = b.tipo
                  AND t.tit_id = b.tit_id
             LEFT JOIN reports.clientes c ON c.client_id = t.client_id AND c.emp_id = t.emp_id AND c.cli_id = t.pessoa_id
             LEFT JOIN reports.bancos k ON k.client_id = b.client_id AND k.emp_id = b.emp_id AND k.bco_id = b.bco_id
             LEFT JOIN reports.formaspagamento f ON f.client_id = b.client_id AND f.emp_id = 0 AND f.frmp_id = b.frmp_id
             WHERE b.client_id = $1 AND b.emp_id = $2 AND b.tipo = $3 AND b.dta BETWEEN $4 AND $5 AND NOT b.estornada
               AND ($6::bigint IS NULL OR t.pessoa_id = $6) AND ($7::bigint IS NULL OR b.bco_id = $7)
               AND ($8::bigint IS NULL OR b.frmp_id = $8)
             ORDER BY b.dta, b.baix_id",
        )
        .bind(client)
        .bind(emp)
        .bind(self.side)
        .bind(p.from)
        .bind(p.to)
        .bind(p.id("CLI_ID"))
        .bind(p.id("BCO_ID"))
        .bind(p.id("FRMP_ID"))
        .fetch_all(&mut **tx)
        .await?;
        rows::all(&found)
    }
}

/// Each account's opening balance (initial balance plus every movement before
/// the period), its movements in the period and the balance after each.
pub struct BankMovements;

#[async_trait]
impl Source for BankMovements {
    async fn rows(
        &self,
        tx: &mut Tx,
        client: i64,
        emp: i64,
        p: &Params,
    ) -> Result<Vec<Map<String, Value>>> {
        let found = sqlx::query(
            "WITH accounts AS (
                 SELECT DISTINCT m.bco_id FROM reports.movbancario m
                 WHERE m.client_id = $1 AND m.emp_id = $2 AND m.dta BETWEEN $3 AND $4
                   AND ($5::bigint IS NULL OR m.bco_id = $5))
             SELECT coalesce(k.descricao, 'Conta ' || a.bco_id) AS banco, 0 AS ord, NULL::date AS data,
                    'Saldo anterior' AS historico, '' AS documento, '' AS origem,
                    NULL::numeric AS credito, NULL::numeric AS debito,
                    coalesce(k.saldo_inicial, 0) + coalesce((
                        SELECT sum(CASE m.tipo WHEN 'C' THEN m.valor ELSE -m.valor END) FROM reports.movbancario m
                        WHERE m.client_id = $1 AND m.emp_id = $2 AND m.bco_id = a.bco_id AND m.dta < $3), 0)
                        AS saldo_anterior, a.bco_id, 0::bigint AS mbca_id
             FROM accounts a
             LEFT JOIN reports.bancos k ON k.client_id = $1 AND k.emp_id = $2 AND k.bco_id = a.bco_id
             UNION ALL
             SELECT coalesce(k.descricao, 'Conta ' || m.bco_id), 1, m.dta, coalesce(m.historico, ''),
                    coalesce(m.documento, ''), coalesce(m.origem, ''),
                    CASE m.tipo WHEN 'C' THEN m.valor END, CASE m.tipo WHEN 'D' THEN m.valor END, NULL,
                    m.bco_id, m.mbca_id
             FROM reports.movbancario m
             LEFT JOIN reports.bancos k ON k.client_id = m.client_id AND k.emp_id = m.emp_id AND k.bco_id = m.bco_id
             WHERE m.client_id = $1 AND m.emp_id = $2 AND m.dta BETWEEN $3 AND $4
               AND ($5::bigint IS NULL OR m.bco_id = $5)
             ORDER BY bco_id, ord, data, mbca_id",
        )
        .bind(client)
        .bind(emp)
        .bind(p.from)
        .bind(p.to)
        .bind(p.id("BCO_ID"))
        .fetch_all(&mut **tx)
        .await?;
        let mut out = rows::all(&found)?;
        rows::running(&mut out, "BCO_ID", "CREDITO", "DEBITO");
        for r in &mut out {
            r.remove("ORD");
            r.remove("MBCA_ID");
        }
        Ok(out)
    }
}

fn titles_report(side: &'static str) -> Report {
    let (name, title, route, path, person, label, filter) = if side == "R" {
        (
            "contasreceber",
            "Relatório de Contas a Receber",
            "/relatorioscontasareceber",
            "/contasReceber/reports",
            "CLIENTE",
            "Cliente",
            CUSTOMER,
        )
    } else {
        (
            "contaspagar",
            "Relatório de Contas a Pagar",
            "/relatorioscontasapagar",
            "/pagamentos/reports",
            "FORNECEDOR",
            "Fornecedor",
            SUPPLIER,
        )
    };
    Report {
        name,
        title,
        route,
        path,
        landscape: true,
        filters: vec![filter, STANDING, CENTRE],
        columns: vec![
            col("VENCIMENTO", "Vencimento", Kind::Date, 20.0),
            col("EMISSAO", "Emissão", Kind::Date, 20.0),
            col("TITULO", "Título", Kind::Int, 14.0),
            col("DOCUMENTO", "Documento", Kind::Text, 24.0),
            col("PARCELA", "Parcela", Kind::Text, 14.0),
            col(person, label, Kind::Text, 60.0),
            col("CENTRO_CUSTO", "Centro de Custo", Kind::Text, 36.0),
            sum("VALOR", "Valor", Kind::Money, 22.0),
            sum("PAGO", "Pago", Kind::Money, 22.0),
            sum("SALDO", "Saldo", Kind::Money, 22.0),
            col("DIAS_ATRASO", "Atraso (dias)", Kind::Int, 21.0),
        ],
        group_by: None,
        monthly: false,
        source: Box::new(Titles { side }),
    }
}

/// The finance reports.
pub fn reports() -> Vec<Report> {
    vec![
        titles_report("R"),
        titles_report("P"),
        Report {
            name: "recebimentos",
            title: "Relatório de Recebimentos",
            route: "/relatorioderecebimentos",
            path: "/recebimentos/reports",
            landscape: true,
            filters: vec![CUSTOMER, BANK, METHOD],
            columns: vec![
                col("DATA", "Data", Kind::Date, 20.0),
                col("TITULO", "Título", Kind::Int, 14.0),
                col("DOCUMENTO", "Documento", Kind::Text, 24.0),
                col("CLIENTE", "Cliente", Kind::Text, 62.0),
                col("BANCO", "Conta Bancária", Kind::Text, 38.0),
                col("FORMA_PAGAMENTO", "Forma de Pagamento", Kind::Text, 31.0),
                sum("VALOR", "Valor", Kind::Money, 22.0),
                sum("ACRESCIMOS", "Juros/Multa", Kind::Money, 22.0),
                sum("DESCONTO", "Desconto", Kind::Money, 22.0),
                sum("TOTAL", "Recebido", Kind::Money, 22.0),
            ],
            group_by: None,
            monthly: false,
            source: Box::new(Settlements { side: "R" }),
        },
        Report {
            name: "movimentacaobancaria",
            title: "Movimentação Bancária",
            route: "/relatoriosmovbancario",
            path: "/movimentacaobancaria/reports",
            landscape: true,
            filters: vec![BANK],
            columns: vec![
                col("BANCO", "Conta Bancária", Kind::Text, 40.0),
                col("BCO_ID", "Conta", Kind::Int, 0.0),
                col("DATA", "Data", Kind::Date, 20.0),
                col("HISTORICO", "Histórico", Kind::Text, 84.0),
                col("DOCUMENTO", "Documento", Kind::Text, 26.0),
                col("ORIGEM", "Origem", Kind::Text, 27.0),
                sum("CREDITO", "Crédito", Kind::Money, 26.0),
                sum("DEBITO", "Débito", Kind::Money, 26.0),
                col("SALDO", "Saldo", Kind::Money, 28.0),
            ],
            group_by: Some("BANCO"),
            monthly: false,
            source: Box::new(BankMovements),
        },
    ]
}
