//! What one GraphQL request may cost, checked before anything runs.
//!
//! Depth and complexity are async-graphql's own limits (the schema builder); the
//! fields that call a service are declared with a higher complexity. On top of
//! those, [`Limits`] reads the parsed document before validation and execution and
//! refuses a request with too many aliases or too many fields that call a service
//! (fragments expanded), so a query that aliases `resourceList` hundreds of times
//! is refused with a clear message before any upstream call. At run time every
//! upstream call also spends from a per-request budget ([`Budget`]).

use std::collections::HashSet;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use async_graphql::extensions::{Extension, ExtensionContext, ExtensionFactory, NextParseQuery};
use async_graphql::parser::types::{ExecutableDocument, Selection, SelectionSet};
use async_graphql::{ServerError, ServerResult, Variables};

pub const MAX_DEPTH: usize = 12;
pub const MAX_COMPLEXITY: usize = 2000;
/// Complexity of a field that calls a service.
pub const UPSTREAM_COMPLEXITY: usize = 50;
pub const MAX_ALIASES: usize = 30;
/// Fields that call a service, per request.
pub const MAX_UPSTREAM_CALLS: usize = 20;

/// The fields whose resolvers call a service.
const UPSTREAM_FIELDS: [&str; 8] = [
    "resourceList",
    "resourceGet",
    "resourceCreate",
    "resourceUpdate",
    "resourceDelete",
    "resourceAction",
    "toggleFavorite",
    "login",
];

#[derive(Default)]
struct Count {
    aliases: usize,
    upstream: usize,
}

fn walk(
    doc: &ExecutableDocument,
    set: &SelectionSet,
    seen: &mut HashSet<String>,
    depth: usize,
    n: &mut Count,
) {
    if depth > MAX_DEPTH * 2 {
        return;
    }
    for item in &set.items {
        match &item.node {
            Selection::Field(f) => {
                if f.node.alias.is_some() {
                    n.aliases += 1;
                }
                if UPSTREAM_FIELDS.contains(&f.node.name.node.as_str()) {
                    n.upstream += 1;
                }
                walk(doc, &f.node.selection_set.node, seen, depth + 1, n);
            }
            Selection::InlineFragment(fr) => {
                walk(doc, &fr.node.selection_set.node, seen, depth + 1, n)
            }
            Selection::FragmentSpread(sp) => {
                let name = sp.node.fragment_name.node.to_string();
                // Each spread counts (a fragment spread twice runs twice); a cycle
                // stops here (validation refuses it anyway).
                if seen.insert(name.clone()) {
                    if let Some(fr) = doc.fragments.get(sp.node.fragment_name.node.as_str()) {
                        walk(doc, &fr.node.selection_set.node, seen, depth + 1, n);
                    }
                    seen.remove(&name);
                }
            }
        }
    }
}

fn count(doc: &ExecutableDocument) -> Count {
    let mut n = Count::default();
    for (_, op) in doc.operations.iter() {
        walk(
            doc,
            &op.node.selection_set.node,
            &mut HashSet::new(),
            0,
            &mut n,
        );
    }
    n
}

/// Refuses what costs too much before validation and execution.
pub struct Limits;

impl ExtensionFactory for Limits {
    fn create(&self) -> Arc<dyn Extension> {
        Arc::new(LimitsExt)
    }
}

struct LimitsExt;

#[async_trait::async_trait]
impl Extension for LimitsExt {
    async fn parse_query(
        &self,
        ctx: &ExtensionContext<'_>,
        query: &str,
        variables: &Variables,
        next: NextParseQuery<'_>,
    ) -> ServerResult<ExecutableDocument> {
        let doc = next.run(ctx, query, variables).await?;
        let n = count(&doc);
        if n.aliases > MAX_ALIASES {
            return Err(ServerError::new(
                format!(
                    "Consulta com apelidos demais: {} (máximo {MAX_ALIASES}).",
                    n.aliases
                ),
                None,
            ));
        }
        if n.upstream > MAX_UPSTREAM_CALLS {
            return Err(ServerError::new(
                format!(
                    "Consulta com chamadas demais: {} (máximo {MAX_UPSTREAM_CALLS}).",
                    n.upstream
                ),
                None,
            ));
        }
        Ok(doc)
    }
}

/// Upstream calls left to one request (what the static count could not see, such
/// as a subscription's events, still stops here).
#[derive(Default)]
pub struct Budget {
    spent: AtomicUsize,
}

impl Budget {
    pub fn spend(&self) -> erp_platform::Result<()> {
        if self.spent.fetch_add(1, Ordering::Relaxed) >= MAX_UPSTREAM_CALLS {
            Err(erp_platform::Error::validation(format!(
                "Consulta com chamadas demais (máximo {MAX_UPSTREAM_CALLS})."
            )))
        } else {
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(q: &str) -> ExecutableDocument {
        async_graphql::parser::parse_query(q).expect("query")
    }

    #[test]
    fn aliases_and_upstream_fields_are_counted_through_fragments() {
        let many: String = (0..40)
            .map(|i| format!("a{i}: resourceList(name: \"clientes\", emp: 1) {{ total }} "))
            .collect();
        let n = count(&parse(&format!("{{ {many} }}")));
        assert_eq!((n.aliases, n.upstream), (40, 40));
        let n = count(&parse(
            "query { ...F ...F } fragment F on Query { resourceList(name: \"x\", emp: 1) { total } me { name } }",
        ));
        assert_eq!((n.aliases, n.upstream), (0, 2));
        let budget = Budget::default();
        for _ in 0..MAX_UPSTREAM_CALLS {
            assert!(budget.spend().is_ok());
        }
        assert!(budget.spend().is_err());
    }
}
