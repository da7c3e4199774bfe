//! Demo data for `erp seed-demo` and `make run`: the operator client with company
//! 9999 and a demo client with two companies. Idempotent: running it again resets
//! the demo passwords and grants, and leaves everything else alone.

use erp_platform::db::Db;
use erp_platform::grpc::Caller;
use erp_platform::resource::{query, Op};
use erp_platform::{Error, Result};

pub struct DemoLogin {
    pub cpfcnpj: &'static str,
    pub login: &'static str,
    pub password: &'static str,
    pub note: &'static str,
}

pub const DEMO_CLIENT: i64 = 2;

pub const LOGINS: [DemoLogin; 3] = [
    DemoLogin {
        cpfcnpj: "11.222.333/0001-81",
        login: "admin",
        password: "admin123",
        note: "cliente demo, empresas 1 e 2, todos os programas",
    },
    DemoLogin {
        cpfcnpj: "11.222.333/0001-81",
        login: "vendedor",
        password: "vendedor123",
        note: "cliente demo, empresa 1, cadastros e vendas",
    },
    DemoLogin {
        cpfcnpj: "00.000.000/0001-91",
        login: "suporte",
        password: "suporte123",
        note: "cliente operador, empresa 9999 (suporte)",
    },
];

/// A company of a seeded client.
#[derive(Debug, Default, Clone, Copy)]
pub struct Company {
    pub id: i64,
    pub name: &'static str,
    pub fantasy: &'static str,
    pub cnpj: &'static str,
    pub regime: &'static str,
    pub city: &'static str,
    pub uf: &'static str,
    pub ibge: i64,
    /// State registration and address (what an NF-e's issuer needs; empty: none).
    pub ie: &'static str,
    pub street: &'static str,
    pub number: &'static str,
    pub district: &'static str,
    pub cep: &'static str,
}

pub async fn seed(db: &Db, operator_client: i64) -> Result<()> {
    add_account(
        db,
        operator_client,
        "00000000000191",
        "BS Sistemas (operador)",
    )
    .await?;
    add_account(
        db,
        DEMO_CLIENT,
        "11222333000181",
        "Oficina e Distribuidora Demo",
    )
    .await?;

    let operator = [Company {
        id: 9999,
        name: "BS SISTEMAS SUPORTE LTDA",
        fantasy: "Suporte",
        cnpj: "00000000000191",
        regime: "LUCRO PRESUMIDO",
        city: "Porto Alegre",
        uf: "RS",
        ibge: 4314902,
        ..Company::default()
    }];
    let demo = [
        Company {
            id: 1,
            name: "OFICINA DEMO LTDA",
            fantasy: "Oficina Demo",
            cnpj: "11222333000181",
            regime: "SIMPLES NACIONAL",
            city: "Caxias do Sul",
            uf: "RS",
            ibge: 4305108,
            ie: "0290012345",
            street: "Rua Os Dezoito do Forte",
            number: "1200",
            district: "Centro",
            cep: "95020-472",
        },
        Company {
            id: 2,
            name: "DISTRIBUIDORA DEMO LTDA",
            fantasy: "Distribuidora Demo",
            cnpj: "12ABC34501DE35",
            regime: "LUCRO PRESUMIDO",
            city: "São Paulo",
            uf: "SP",
            ibge: 3550308,
            ..Company::default()
        },
    ];
    seed_client(
        db,
        operator_client,
        &operator,
        &[("suporte", "Suporte BS", "suporte123", 9999, &[9999], true)],
    )
    .await?;
    seed_client(
        db,
        DEMO_CLIENT,
        &demo,
        &[
            ("admin", "Administrador Demo", "admin123", 1, &[1, 2], true),
            ("vendedor", "Vendedor Demo", "vendedor123", 1, &[1], false),
        ],
    )
    .await
}

/// A client account (tenant), found at login by its document.
pub async fn add_account(db: &Db, client: i64, cpfcnpj: &str, name: &str) -> Result<()> {
    let mut tx = db.begin().await?;
    sqlx::query(
        "INSERT INTO identity.clientes_conta (client_id, cpfcnpj, nome) VALUES ($1, $2, $3)
         ON CONFLICT (client_id) DO NOTHING",
    )
    .bind(client)
    .bind(cpfcnpj)
    .bind(name)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(())
}

/// (login, name, password, default company, allowed companies, every program with
/// every permission; else registers and sales without changes or deletes).
pub type UserSpec<'a> = (&'a str, &'a str, &'a str, i64, &'a [i64], bool);

pub async fn seed_client(
    db: &Db,
    client: i64,
    companies: &[Company],
    users: &[UserSpec<'_>],
) -> Result<()> {
    let mut tx = db.begin_tenant(client).await?;
    let registry = crate::resources::registry().map_err(Error::internal)?;
    let register = registry
        .get("empresas")
        .cloned()
        .ok_or_else(|| Error::internal("empresas not registered"))?;
    for c in companies {
        let inserted = sqlx::query(
            "INSERT INTO identity.empresas (client_id, emp_id, emp_descricao, emp_fantasia, emp_cgc, emp_regime, emp_cidade,
                 emp_uf, emp_cid_ibge, emp_ie, emp_endereco, emp_numero, emp_bairro, emp_cep)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, nullif($10, ''), nullif($11, ''), nullif($12, ''),
                     nullif($13, ''), nullif($14, ''))
             ON CONFLICT (client_id, emp_id) DO NOTHING",
        )
        .bind(client)
        .bind(c.id)
        .bind(c.name)
        .bind(c.fantasy)
        .bind(c.cnpj)
        .bind(c.regime)
        .bind(c.city)
        .bind(c.uf)
        .bind(c.ibge)
        .bind(c.ie)
        .bind(c.street)
        .bind(c.number)
        .bind(c.district)
        .bind(c.cep)
        .execute(&mut *tx)
        .await?
        .rows_affected()
            == 1;
        // The other services keep copies of the companies from their facts (the
        // receipts' and slips' issuer): a seeded company is announced like one
        // written on its screen.
        let caller = Caller { client_id: client, user_id: 0, emp_id: c.id, privileged: true };
        let row = query::get(&mut tx, &register, &caller, None, &[c.id.to_string()]).await?;
        let op = if inserted { Op::Create } else { Op::Update };
        query::publish(&mut tx, &register, &caller, None, op, &row).await?;
    }
    for (i, (login, name, password, emp, emps, all)) in users.iter().enumerate() {
        let id = i as i64 + 1;
        let hash = crate::password::hash(password.to_string()).await?;
        sqlx::query(
            "INSERT INTO identity.usuarios (client_id, usr_id, usr_usuario, usr_nome, usr_senha_hash, usr_emp_id, usr_empresas)
             VALUES ($1, $2, $3, $4, $5, $6, $7)
             ON CONFLICT (client_id, usr_id) DO UPDATE SET usr_senha_hash = EXCLUDED.usr_senha_hash,
                 usr_empresas = EXCLUDED.usr_empresas, usr_situacao = 1",
        )
        .bind(client)
        .bind(id)
        .bind(login)
        .bind(name)
        .bind(hash)
        .bind(emp)
        .bind(serde_json::json!(emps))
        .execute(&mut *tx)
        .await?;
        // Announced like the companies: other services print who did what.
        let users = registry
            .get("usuarios")
            .cloned()
            .ok_or_else(|| Error::internal("usuarios not registered"))?;
        let caller = Caller { client_id: client, user_id: 0, emp_id: *emp, privileged: true };
        let row = query::get(&mut tx, &users, &caller, Some(*emp), &[id.to_string()]).await?;
        query::publish(&mut tx, &users, &caller, Some(*emp), Op::Update, &row).await?;
        // The administrator gets every program; the salesperson registers and sales.
        let filter = if *all {
            "true"
        } else {
            "prog_nivel1 IN ('Cadastros', 'Vendas') OR prog_nome = 'whatsapp'"
        };
        let sql = format!(
            "INSERT INTO identity.programas_usuario
                (client_id, prgu_usuario, prgu_prog_id, prgu_consulta, prgu_inclusao, prgu_alteracao, prgu_exclusao)
             SELECT $1, $2, prog_id, 1, 1, $3, $3 FROM identity.programas WHERE {filter}
             ON CONFLICT (client_id, prgu_usuario, prgu_prog_id) DO UPDATE SET
                prgu_consulta = 1, prgu_inclusao = 1, prgu_alteracao = EXCLUDED.prgu_alteracao,
                prgu_exclusao = EXCLUDED.prgu_exclusao"
        );
        sqlx::query(&sql)
            .bind(client)
            .bind(id)
            .bind(i32::from(*all))
            .execute(&mut *tx)
            .await?;
    }
    tx.commit().await?;
    Ok(())
}
