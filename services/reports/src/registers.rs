//! The register reports over the copies and the facts: the customers with what
//! they bought in the period and what they owe (`/clientes/reports`) and the
//! products with their stock, its value at average cost and what was sold of
//! them in the period (`/produtos/reports`, grouped by product group).

use async_trait::async_trait;
use erp_platform::db::Tx;
use erp_platform::Result;
use serde_json::{Map, Value};

use crate::engine::{col, sum, Filter, FilterKind, Kind, Params, Report, Source};
use crate::purchases::{ONLY_ACTIVE, STATE};
use crate::rows;

const SELLER: Filter = Filter {
    field: "COLA_ID",
    label: "Representante",
    kind: FilterKind::Reference("colaborador"),
};
pub const GROUP: Filter =
    Filter { field: "GRUP_ID", label: "Grupo", kind: FilterKind::Reference("grupo") };
const SUBGROUP: Filter = Filter {
    field: "GSUB_ID",
    label: "Subgrupo",
    kind: FilterKind::Reference("subgrupo"),
};

pub struct Customers;

#[async_trait]
impl Source for Customers {
    async fn rows(
        &self,
        tx: &mut Tx,
        client: i64,
        emp: i64,
        p: &Params,
    ) -> Result<Vec<Map<String, Value>>> {
        let found = sqlx::query(
            "SELECT * FROM (
                 SELECT c.cli_id, coalesce(c.descricao, '') AS cliente, coalesce(c.cgc, c.cpf, '') AS cpf_cnpj,
                        coalesce(c.cidade, '') AS cidade, coalesce(c.uf, '') AS uf, coalesce(c.fone, '') AS fone,
                        coalesce(r.nome, '') AS representante,
                        (SELECT count(*) FROM reports.vendas v WHERE v.client_id = c.client_id AND v.emp_id = c.emp_id
                           AND v.cli_id = c.cli_id AND v.dta BETWEEN $3 AND $4) AS pedidos,
                        coalesce((SELECT sum(v.total) FROM reports.vendas v WHERE v.client_id = c.client_id
                           AND v.emp_id = c.emp_id AND v.cli_id = c.cli_id AND v.dta BETWEEN $3 AND $4), 0) AS valor_compras,
                        coalesce((SELECT sum(t.saldo) FROM reports.titulos t WHERE t.client_id = c.client_id
                           AND t.emp_id = c.emp_id AND t.tipo = 'R' AND t.pessoa_id = c.cli_id AND t.situacao <> 'C'), 0)
                           AS saldo_receber
                 FROM reports.clientes c
                 LEFT JOIN reports.colaboradores r ON r.client_id = c.client_id AND r.emp_id = c.emp_id AND r.cola_id = c.cola_id
                 WHERE c.client_id = $1 AND c.emp_id = $2 AND NOT c.excluido
                   AND ($5::text IS NULL OR upper(c.uf) = upper($5)) AND ($6::bigint IS NULL OR c.cola_id = $6)) x
             WHERE coalesce($7, 'S') = 'T' OR x.pedidos > 0 OR x.saldo_receber <> 0
             ORDER BY x.cliente, x.cli_id",
        )
        .bind(client)
        .bind(emp)
        .bind(p.from)
        .bind(p.to)
        .bind(p.text("UF"))
        .bind(p.id("COLA_ID"))
        .bind(p.text("MOVIMENTO"))
        .fetch_all(&mut **tx)
        .await?;
        rows::all(&found)
    }
}

pub struct Products;

#[async_trait]
impl Source for Products {
    async fn rows(
        &self,
        tx: &mut Tx,
        client: i64,
        emp: i64,
        p: &Params,
    ) -> Result<Vec<Map<String, Value>>> {
        // The period's sales per product from the item rollups (whole months
        // and the other days), with the same $1..$13 as every sales report.
        let sql = format!(
            "SELECT coalesce(g.descricao, 'Sem grupo') AS grupo, p.prod_id, coalesce(p.descricao, '') AS produto,
                    coalesce(p.referencia, '') AS referencia, coalesce(p.unidade, '') AS unidade,
                    coalesce(s.custo_medio, p.custo, 0) AS custo, coalesce(p.preco, 0) AS preco,
                    coalesce(s.qtde, 0) AS estoque, round(coalesce(s.qtde * s.custo_medio, 0), 2) AS valor_estoque,
                    coalesce(v.qtde, 0) AS qtde_vendida, coalesce(v.valor, 0) AS valor_vendido
             FROM reports.produtos p
             LEFT JOIN reports.grupos g ON g.client_id = p.client_id AND g.emp_id = 0 AND g.grup_id = p.grup_id
             LEFT JOIN reports.estoquesaldo s ON s.client_id = p.client_id AND s.emp_id = p.emp_id AND s.prod_id = p.prod_id
             LEFT JOIN (SELECT d.item_id, sum(d.qtde) AS qtde, sum(d.valor) AS valor {src} AND d.tipo = 'P'
                        GROUP BY d.item_id) v ON v.item_id = p.prod_id
             WHERE p.client_id = $1 AND p.emp_id = $2 AND NOT p.excluido
               AND ($5::bigint IS NULL OR p.grup_id = $5) AND ($6::bigint IS NULL OR p.gsub_id = $6)
             ORDER BY grupo, produto, p.prod_id",
            src = crate::rollup::from_where(false, p),
        );
        let found = crate::rollup::bind(sqlx::query(&sql), client, emp, p)
            .fetch_all(&mut **tx)
            .await?;
        rows::all(&found)
    }
}

/// The register reports.
pub fn reports() -> Vec<Report> {
    vec![
        Report {
            name: "clientes",
            title: "Relatório de Clientes",
            route: "/relatoriosclientes",
            path: "/clientes/reports",
            landscape: true,
            filters: vec![SELLER, STATE, ONLY_ACTIVE],
            columns: vec![
                col("CLI_ID", "Código", Kind::Int, 14.0),
                col("CLIENTE", "Cliente", Kind::Text, 66.0),
                col("CPF_CNPJ", "CPF/CNPJ", Kind::Text, 30.0),
                col("CIDADE", "Cidade", Kind::Text, 32.0),
                col("UF", "UF", Kind::Text, 9.0),
                col("FONE", "Telefone", Kind::Text, 28.0),
                col("REPRESENTANTE", "Representante", Kind::Text, 30.0),
                col("PEDIDOS", "Pedidos", Kind::Int, 14.0),
                sum("VALOR_COMPRAS", "Comprado", Kind::Money, 27.0),
                sum("SALDO_RECEBER", "A Receber", Kind::Money, 27.0),
            ],
            group_by: None,
            monthly: false,
            source: Box::new(Customers),
        },
        Report {
            name: "produtos",
            title: "Relatório de Produtos",
            route: "/relatoriosprodutos",
            path: "/produtos/reports",
            landscape: true,
            filters: vec![GROUP, SUBGROUP],
            columns: vec![
                col("GRUPO", "Grupo", Kind::Text, 30.0),
                col("PROD_ID", "Código", Kind::Int, 14.0),
                col("PRODUTO", "Produto", Kind::Text, 64.0),
                col("REFERENCIA", "Referência", Kind::Text, 20.0),
                col("UNIDADE", "Un.", Kind::Text, 10.0),
                col("CUSTO", "Custo Médio", Kind::Money, 20.0),
                col("PRECO", "Preço", Kind::Money, 20.0),
                sum("ESTOQUE", "Estoque", Kind::Quantity, 20.0),
                sum("VALOR_ESTOQUE", "Valor em Estoque", Kind::Money, 26.0),
                sum("QTDE_VENDIDA", "Qtde. Vendida", Kind::Quantity, 24.0),
                sum("VALOR_VENDIDO", "Valor Vendido", Kind::Money, 28.0),
            ],
            group_by: Some("GRUPO"),
            monthly: false,
            source: Box::new(Products),
        },
    ]
}
