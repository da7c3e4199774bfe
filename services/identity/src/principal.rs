//! Who a user is now: companies they may work in, the current company, whether
//! they are a support operator, and their programs with permissions.

use erp_platform::db::Tx;
use erp_platform::{Error, Result, PRIVILEGED_COMPANIES};
use erp_proto::identity::v1::{Company, Principal, User, UserProgram};
use sqlx::Row;

/// Support operators are privileged only inside the operator client: a tenant that
/// numbers one of its own companies 9999 gains nothing.
pub fn is_privileged(operator_client: i64, client_id: i64, company: i64) -> bool {
    client_id == operator_client && PRIVILEGED_COMPANIES.contains(&company)
}

pub async fn load(
    tx: &mut Tx,
    operator_client: i64,
    client_id: i64,
    user_id: i64,
    company: Option<i64>,
) -> Result<Principal> {
    let row = sqlx::query(
        "SELECT usr_usuario, usr_nome, usr_emp_id, usr_situacao FROM identity.usuarios
         WHERE client_id = $1 AND usr_id = $2",
    )
    .bind(client_id)
    .bind(user_id)
    .fetch_optional(&mut **tx)
    .await?
    .ok_or_else(|| Error::Unauthenticated("Sessão inválida.".into()))?;
    let default_emp: i64 = row.try_get("usr_emp_id")?;
    let active = row.try_get::<i32, _>("usr_situacao")? == 1;
    let user = User {
        id: user_id,
        login: row.try_get("usr_usuario")?,
        name: row.try_get("usr_nome")?,
        company_id: default_emp,
    };

    let companies: Vec<Company> = sqlx::query(
        "SELECT e.emp_id, e.emp_descricao, e.emp_cgc, e.emp_fantasia, e.emp_img_logo_rel
         FROM identity.empresas e JOIN identity.usuarios u ON u.client_id = e.client_id
         WHERE u.client_id = $1 AND u.usr_id = $2
           AND (e.emp_id = u.usr_emp_id OR u.usr_empresas @> to_jsonb(e.emp_id))
         ORDER BY e.emp_id",
    )
    .bind(client_id)
    .bind(user_id)
    .fetch_all(&mut **tx)
    .await?
    .iter()
    .map(|r| {
        Ok(Company {
            id: r.try_get("emp_id")?,
            name: r.try_get("emp_descricao")?,
            tax_id: r.try_get("emp_cgc")?,
            fantasy_name: r.try_get("emp_fantasia")?,
            logo: r.try_get("emp_img_logo_rel")?,
        })
    })
    .collect::<Result<_, sqlx::Error>>()?;

    let current = company.unwrap_or(default_emp);
    let company = companies
        .iter()
        .find(|c| c.id == current)
        .cloned()
        .ok_or_else(|| Error::Forbidden("Empresa não permitida para o usuário.".into()))?;
    let privileged = is_privileged(operator_client, client_id, company.id);
    let programs = programs(tx, client_id, user_id, privileged).await?;
    Ok(Principal {
        client_id,
        user: Some(user),
        company: Some(company),
        companies,
        privileged,
        programs,
        active,
    })
}

async fn programs(
    tx: &mut Tx,
    client_id: i64,
    user_id: i64,
    privileged: bool,
) -> Result<Vec<UserProgram>> {
    let rows = sqlx::query(
        "SELECT p.prog_id, p.prog_nome, p.prog_descricao, p.prog_dir_web, p.prog_exe, p.prog_img_web,
                p.prog_nivel1, p.prog_nivel2, p.prog_nivel3, p.prog_ordem,
                coalesce(g.prgu_favorito, 0) AS fav, coalesce(g.prgu_consulta, 0) AS c,
                coalesce(g.prgu_inclusao, 0) AS i, coalesce(g.prgu_alteracao, 0) AS a,
                coalesce(g.prgu_exclusao, 0) AS e
         FROM identity.programas p
         LEFT JOIN identity.programas_usuario g
           ON g.prgu_prog_id = p.prog_id AND g.client_id = $1 AND g.prgu_usuario = $2
         WHERE $3 OR g.prgu_prog_id IS NOT NULL
         ORDER BY p.prog_id",
    )
    .bind(client_id)
    .bind(user_id)
    .bind(privileged)
    .fetch_all(&mut **tx)
    .await?;
    rows.iter()
        .map(|r| {
            let flag = |n: &str| -> Result<bool, sqlx::Error> {
                Ok(privileged || r.try_get::<i32, _>(n)? == 1)
            };
            Ok(UserProgram {
                id: i64::from(r.try_get::<i32, _>("prog_id")?),
                name: r.try_get("prog_nome")?,
                description: r.try_get("prog_descricao")?,
                web_path: r.try_get("prog_dir_web")?,
                exe: r.try_get("prog_exe")?,
                icon: r.try_get("prog_img_web")?,
                level1: r.try_get("prog_nivel1")?,
                level2: r.try_get("prog_nivel2")?,
                level3: r.try_get("prog_nivel3")?,
                order: r.try_get("prog_ordem")?,
                favorite: r.try_get::<i32, _>("fav")? == 1,
                can_view: flag("c")?,
                can_create: flag("i")?,
                can_update: flag("a")?,
                can_delete: flag("e")?,
            })
        })
        .collect::<Result<_, sqlx::Error>>()
        .map_err(Error::from)
}

#[cfg(test)]
mod tests {
    use super::is_privileged;

    #[test]
    fn privilege_needs_the_operator_client() {
        assert!(is_privileged(1, 1, 9999));
        assert!(is_privileged(1, 1, 130));
        assert!(!is_privileged(1, 2, 9999));
        assert!(!is_privileged(1, 1, 1));
    }
}
