//! The service order reports over the finished service orders' facts: the
//! orders closed in the period (`/ordemservico/reports`), their services by
//! sector (`/ordemservicosetor/reports`, a service with no sector under 'Sem
//! setor') and the vehicles' history (`/ordemservicohistorico/reports`: per
//! vehicle, every service and part of its orders with the odometer). An order
//! counts on the day it was finished.

use async_trait::async_trait;
use erp_platform::db::Tx;
use erp_platform::Result;
use serde_json::{Map, Value};

use crate::engine::{col, sum, Filter, FilterKind, Kind, Params, Report, Source};
use crate::finance::CUSTOMER;
use crate::rows;

pub const VEHICLE: Filter = Filter {
    field: "VEIC_ID",
    label: "Veículo",
    kind: FilterKind::Reference("veiculo"),
};
pub const SECTOR: Filter = Filter {
    field: "SETS_ID",
    label: "Setor",
    kind: FilterKind::Reference("setorservico"),
};

/// The order's customer as the register names it now (the order's copy else).
const CUSTOMER_NAME: &str = "coalesce(c.descricao, o.cli_nome, 'Cliente ' || o.cli_id)";
const JOINS: &str = "
    LEFT JOIN reports.clientes c ON c.client_id = o.client_id AND c.emp_id = o.emp_id AND c.cli_id = o.cli_id
    LEFT JOIN reports.veiculos v ON v.client_id = o.client_id AND v.emp_id = o.emp_id AND v.veic_id = o.veic_id";

pub struct ServiceOrders;

#[async_trait]
impl Source for ServiceOrders {
    async fn rows(
        &self,
        tx: &mut Tx,
        client: i64,
        emp: i64,
        p: &Params,
    ) -> Result<Vec<Map<String, Value>>> {
        let sql = format!(
            "SELECT o.dta_saida AS data, o.ords_id AS ordem, o.serie, o.dta_entrada AS entrada,
                    {CUSTOMER_NAME} AS cliente, coalesce(v.placa, '') AS veiculo, o.km,
                    o.servicos, o.pecas, o.acrescimos, o.descontos, o.total
             FROM reports.ordensservico o {JOINS}
             WHERE o.client_id = $1 AND o.emp_id = $2 AND o.dta_saida BETWEEN $3 AND $4
               AND ($5::bigint IS NULL OR o.cli_id = $5) AND ($6::bigint IS NULL OR o.veic_id = $6)
             ORDER BY o.dta_saida, o.ords_id, o.serie"
        );
        let found = sqlx::query(&sql)
            .bind(client)
            .bind(emp)
            .bind(p.from)
            .bind(p.to)
            .bind(p.id("CLI_ID"))
            .bind(p.id("VEIC_ID"))
            .fetch_all(&mut **tx)
            .await?;
        rows::all(&found)
    }
}

/// The services of the finished orders by sector.
pub struct BySector;

#[async_trait]
impl Source for BySector {
    async fn rows(
        &self,
        tx: &mut Tx,
        client: i64,
        emp: i64,
        p: &Params,
    ) -> Result<Vec<Map<String, Value>>> {
        let sql = format!(
            "SELECT coalesce(s.descricao, 'Sem setor') AS setor, i.dta_saida AS data, i.ords_id AS ordem,
                    {CUSTOMER_NAME} AS cliente,
                    coalesce(sv.descricao, i.descricao, 'Serviço ' || i.item_id) AS servico,
                    coalesce(m.nome, '') AS mecanico, i.qtde AS quantidade, i.total
             FROM reports.ordensservicoitens i
             JOIN reports.ordensservico o ON o.client_id = i.client_id AND o.emp_id = i.emp_id
                  AND o.ords_id = i.ords_id AND o.serie = i.serie
             {JOINS}
             LEFT JOIN reports.setores s ON s.client_id = i.client_id AND s.emp_id = i.emp_id AND s.sets_id = i.sets_id
             LEFT JOIN reports.servicos sv ON sv.client_id = i.client_id AND sv.emp_id = i.emp_id
                  AND sv.serv_id = i.item_id
             LEFT JOIN reports.colaboradores m ON m.client_id = i.client_id AND m.emp_id = i.emp_id
                  AND m.cola_id = i.cola_id
             WHERE i.client_id = $1 AND i.emp_id = $2 AND i.tipo = 'S' AND i.dta_saida BETWEEN $3 AND $4
               AND ($5::bigint IS NULL OR i.sets_id = $5) AND ($6::bigint IS NULL OR o.cli_id = $6)
             ORDER BY setor, i.sets_id NULLS LAST, i.dta_saida, i.ords_id, i.item"
        );
        let found = sqlx::query(&sql)
            .bind(client)
            .bind(emp)
            .bind(p.from)
            .bind(p.to)
            .bind(p.id("SETS_ID"))
            .bind(p.id("CLI_ID"))
            .fetch_all(&mut **tx)
            .await?;
        rows::all(&found)
    }
}

/// The vehicles' history: every line of their finished orders.
pub struct VehicleHistory;

#[async_trait]
impl Source for VehicleHistory {
    async fn rows(
        &self,
        tx: &mut Tx,
        client: i64,
        emp: i64,
        p: &Params,
    ) -> Result<Vec<Map<String, Value>>> {
        let sql = format!(
            "SELECT coalesce(v.placa, 'Veículo ' || o.veic_id) AS veiculo, o.dta_saida AS data, o.ords_id AS ordem,
                    o.km, CASE i.tipo WHEN 'S' THEN 'Serviço' ELSE 'Peça' END AS tipo,
                    coalesce(CASE i.tipo WHEN 'S' THEN sv.descricao ELSE pr.descricao END, i.descricao,
                             i.tipo || ' ' || i.item_id) AS descricao,
                    i.qtde AS quantidade, i.total
             FROM reports.ordensservicoitens i
             JOIN reports.ordensservico o ON o.client_id = i.client_id AND o.emp_id = i.emp_id
                  AND o.ords_id = i.ords_id AND o.serie = i.serie
             {JOINS}
             LEFT JOIN reports.servicos sv ON i.tipo = 'S' AND sv.client_id = i.client_id AND sv.emp_id = i.emp_id
                  AND sv.serv_id = i.item_id
             LEFT JOIN reports.produtos pr ON i.tipo = 'P' AND pr.client_id = i.client_id AND pr.emp_id = i.emp_id
                  AND pr.prod_id = i.item_id
             WHERE i.client_id = $1 AND i.emp_id = $2 AND o.veic_id IS NOT NULL AND i.dta_saida BETWEEN $3 AND $4
               AND ($5::bigint IS NULL OR o.veic_id = $5) AND ($6::bigint IS NULL OR o.cli_id = $6)
             ORDER BY veiculo, o.veic_id, o.dta_saida, o.ords_id, i.tipo DESC, i.item"
        );
        let found = sqlx::query(&sql)
            .bind(client)
            .bind(emp)
            .bind(p.from)
            .bind(p.to)
            .bind(p.id("VEIC_ID"))
            .bind(p.id("CLI_ID"))
            .fetch_all(&mut **tx)
            .await?;
        rows::all(&found)
    }
}

/// The service order reports.
pub fn reports() -> Vec<Report> {
    vec![
        Report {
            name: "ordemservico",
            title: "Relatório de Ordens de Serviço",
            route: "/relatorioordemdeservico",
            path: "/ordemservico/reports",
            landscape: true,
            filters: vec![CUSTOMER, VEHICLE],
            columns: vec![
                col("DATA", "Saída", Kind::Date, 18.0),
                col("ORDEM", "OS", Kind::Int, 14.0),
                col("SERIE", "Série", Kind::Text, 10.0),
                col("ENTRADA", "Entrada", Kind::Date, 18.0),
                col("CLIENTE", "Cliente", Kind::Text, 60.0),
                col("VEICULO", "Veículo", Kind::Text, 20.0),
                col("KM", "Km", Kind::Int, 16.0),
                sum("SERVICOS", "Serviços", Kind::Money, 24.0),
                sum("PECAS", "Peças", Kind::Money, 24.0),
                sum("ACRESCIMOS", "Acréscimos", Kind::Money, 22.0),
                sum("DESCONTOS", "Descontos", Kind::Money, 22.0),
                sum("TOTAL", "Total", Kind::Money, 26.0),
            ],
            group_by: None,
            monthly: false,
            source: Box::new(ServiceOrders),
        },
        Report {
            name: "ordemservicosetor",
            title: "Ordens de Serviço por Setor",
            route: "/relatoriodeosporsetor",
            path: "/ordemservicosetor/reports",
            landscape: false,
            filters: vec![SECTOR, CUSTOMER],
            columns: vec![
                col("SETOR", "Setor", Kind::Text, 30.0),
                col("DATA", "Data", Kind::Date, 18.0),
                col("ORDEM", "OS", Kind::Int, 12.0),
                col("CLIENTE", "Cliente", Kind::Text, 40.0),
                col("SERVICO", "Serviço", Kind::Text, 40.0),
                col("MECANICO", "Mecânico", Kind::Text, 0.0),
                sum("QUANTIDADE", "Qtde", Kind::Quantity, 18.0),
                sum("TOTAL", "Total", Kind::Money, 24.0),
            ],
            group_by: Some("SETOR"),
            monthly: false,
            source: Box::new(BySector),
        },
        Report {
            name: "ordemservicohistorico",
            title: "Histórico Veicular",
            route: "/relatorioshistoricoveicular",
            path: "/ordemservicohistorico/reports",
            landscape: false,
            filters: vec![VEHICLE, CUSTOMER],
            columns: vec![
                col("VEICULO", "Veículo", Kind::Text, 22.0),
                col("DATA", "Data", Kind::Date, 18.0),
                col("ORDEM", "OS", Kind::Int, 12.0),
                col("KM", "Km", Kind::Int, 16.0),
                col("TIPO", "Tipo", Kind::Text, 16.0),
                col("DESCRICAO", "Descrição", Kind::Text, 64.0),
                sum("QUANTIDADE", "Qtde", Kind::Quantity, 18.0),
                sum("TOTAL", "Total", Kind::Money, 24.0),
            ],
            group_by: Some("VEICULO"),
            monthly: false,
            source: Box::new(VehicleHistory),
        },
    ]
}
