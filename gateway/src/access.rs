//! The tenant guard and the per-program permission check. Both run before any
//! upstream call, so a refused request reads and writes nothing.

use erp_platform::{Error, Result};
use serde_json::Value;

use crate::auth::Auth;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Perm {
    /// Any authenticated user.
    None,
    View,
    Create,
    Update,
    Delete,
    /// Support operators only.
    Operator,
}

impl Perm {
    fn verb(self) -> &'static str {
        match self {
            Perm::None | Perm::View => "consultar",
            Perm::Create => "incluir",
            Perm::Update => "alterar",
            Perm::Delete => "excluir",
            Perm::Operator => "acessar",
        }
    }
}

/// Every company named by the request must be one of the user's.
pub fn check_companies(auth: &Auth, emps: &[i64]) -> Result<()> {
    for e in emps {
        if !auth.companies().any(|c| c == *e) {
            return Err(Error::Forbidden(format!("Acesso negado à empresa {e}.")));
        }
    }
    Ok(())
}

/// Companies named in a body: `EMP_ID` and every `*_EMP_ID`, at any depth.
pub fn body_companies(body: &Value, out: &mut Vec<i64>) -> Result<()> {
    fn walk(v: &Value, depth: usize, out: &mut Vec<i64>) -> Result<()> {
        if depth > 4 {
            return Ok(());
        }
        match v {
            Value::Object(m) => {
                for (k, v) in m {
                    let ku = k.to_ascii_uppercase();
                    if ku == "EMP_ID" || ku.ends_with("_EMP_ID") {
                        match v {
                            Value::Null => {}
                            Value::String(s) if s.trim().is_empty() => {}
                            _ => {
                                let n = v
                                    .as_i64()
                                    .or_else(|| v.as_str().and_then(|s| s.trim().parse().ok()))
                                    .ok_or_else(|| {
                                        Error::validation(format!("Valor inválido para {k}."))
                                    })?;
                                out.push(n);
                            }
                        }
                    } else {
                        walk(v, depth + 1, out)?;
                    }
                }
            }
            Value::Array(a) => {
                for v in a {
                    walk(v, depth + 1, out)?;
                }
            }
            _ => {}
        }
        Ok(())
    }
    walk(body, 0, out)
}

/// The user's permission on a program (by route name, e.g. `clientes`); `title`
/// names it in the message when the user has no grant at all.
pub fn check_program(auth: &Auth, program: &str, title: &str, perm: Perm) -> Result<()> {
    if perm == Perm::None || auth.principal.privileged {
        return Ok(());
    }
    if perm == Perm::Operator {
        return Err(Error::forbidden());
    }
    let p = auth.principal.programs.iter().find(|p| p.name == program);
    let allowed = p.is_some_and(|p| match perm {
        Perm::View => p.can_view,
        Perm::Create => p.can_create,
        Perm::Update => p.can_update,
        Perm::Delete => p.can_delete,
        Perm::None => true,
        Perm::Operator => false,
    });
    if allowed {
        Ok(())
    } else {
        let name = p
            .map(|p| p.description.clone())
            .unwrap_or_else(|| title.to_string());
        Err(Error::Forbidden(format!(
            "Usuário sem permissão para {} em {name}.",
            perm.verb()
        )))
    }
}

/// Guard and permission together: companies of the path, companies of the body,
/// then the program.
pub fn authorize(
    auth: &Auth,
    program: &str,
    title: &str,
    perm: Perm,
    path_emps: &[i64],
    body: Option<&Value>,
) -> Result<()> {
    let mut emps = path_emps.to_vec();
    if let Some(b) = body {
        body_companies(b, &mut emps)?;
    }
    check_companies(auth, &emps)?;
    check_program(auth, program, title, perm)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn body_companies_are_found_at_any_depth() {
        let body = serde_json::json!({
            "CLI_EMP_ID": 2, "EMP_ID": "3", "itens": [{"PEDI_PEDF_EMP_ID": 4}], "CLI_DESCRICAO": "x", "X_EMP_ID": null
        });
        let mut out = Vec::new();
        body_companies(&body, &mut out).expect("walk");
        out.sort();
        assert_eq!(out, vec![2, 3, 4]);
        let mut out = Vec::new();
        assert!(body_companies(&serde_json::json!({"CLI_EMP_ID": "abc"}), &mut out).is_err());
    }
}
