//! Register descriptors: `Resource` (what one register is) and `Registry` (the
//! registers one process knows).

use std::collections::HashMap;
use std::sync::Arc;

use serde_json::Value;

use super::action::{Action, ActionHandler, ActionPerm, Button, Untyped};
use super::call::{Handler, Operation, Typed};
use super::document::def::DocPart;
use super::field::{DbType, Field, Group};
use super::hooks::{Hooks, RecordHooks};

#[derive(Clone)]
pub struct Resource {
    /// Legacy path root (`clientes`).
    pub name: String,
    pub aliases: Vec<String>,
    pub title: String,
    /// Owning service and its schema (`catalog`).
    pub schema: String,
    pub table: String,
    /// Key columns without the company (`["CLI_ID"]`).
    pub key: Vec<String>,
    /// Company column (`CLI_EMP_ID`), for company-scoped registers.
    pub company: Option<String>,
    /// The single integer key is numbered by the server per company.
    pub generated_key: bool,
    /// The last key column is a sequence numbered by the server within the other key
    /// columns (a document's lines: order id, serie, item number).
    pub seq_key: Option<String>,
    /// Extra legacy list calls whose path parameters are equality filters
    /// (`POST /pedidoproduto/{PEDI_PEDF_ID}/{emp}/{PEDI_PEDF_SERIE_ID}`).
    pub list_paths: Vec<String>,
    /// Extra legacy count calls, same shape as `list_paths`.
    pub count_paths: Vec<String>,
    /// Field shown as `text` in select boxes.
    pub label: String,
    /// How many characters of the label a list shows (a billing order names its
    /// customer in 20).
    pub label_len: Option<usize>,
    pub default_order: String,
    /// Program (menu route name) whose permissions guard this register.
    pub program: String,
    pub fields: Vec<Field>,
    pub groups: Vec<Group>,
    /// Entity name for `erp.<service>.<entity>.<verb>` events, when others need them.
    pub events: Option<String>,
    pub search_limit: i64,
    pub hooks: Option<Arc<dyn Hooks>>,
    /// Rows belong to a client (`client_id` column, row-level security). Global
    /// reference tables are read by everyone and written only by operators.
    pub tenant: bool,
    /// Generated ids count per client instead of per company (users).
    pub ids_per_client: bool,
    /// Legacy paths carry `{emp}` although the rows are not per company (shared
    /// reference tables such as states): the company is checked, not stored.
    pub company_path: bool,
    pub actions: Vec<Action>,
    /// The web screen (route) of this register, when it has one of its own; sub-
    /// registers (a customer's contacts) have none.
    pub screen: Option<String>,
    /// A valid body for create, used by the table-driven tests and the benchmark.
    pub sample: Option<Value>,
    /// Writes change who users are (companies, users): the gateway forgets the
    /// caller's cached principal at once instead of waiting for the event.
    pub affects_principal: bool,
    /// Unique and check constraints of the table with the pt-BR message a violation
    /// answers ('CPF já cadastrado.'), instead of the generic one.
    pub constraints: Vec<(String, String)>,
    /// The document this register is the header or a line of.
    pub document: Option<DocPart>,
    /// Names given to `create_only` (checked against the fields).
    create_only_names: Vec<String>,
}

impl Resource {
    pub fn new(name: &str, title: &str, schema: &str, table: &str, program: &str) -> Resource {
        Resource {
            name: name.into(),
            aliases: Vec::new(),
            title: title.into(),
            schema: schema.into(),
            table: table.into(),
            key: Vec::new(),
            company: None,
            generated_key: true,
            seq_key: None,
            list_paths: Vec::new(),
            count_paths: Vec::new(),
            label: String::new(),
            label_len: None,
            default_order: String::new(),
            program: program.into(),
            fields: Vec::new(),
            groups: Vec::new(),
            events: None,
            search_limit: 6,
            hooks: None,
            tenant: true,
            ids_per_client: false,
            company_path: false,
            actions: Vec::new(),
            screen: None,
            sample: None,
            affects_principal: false,
            constraints: Vec::new(),
            document: None,
            create_only_names: Vec::new(),
        }
    }

    /// The message a violation of `constraint` (a unique key, a check) answers.
    pub fn constraint(mut self, constraint: &str, message: &str) -> Self {
        self.constraints
            .push((constraint.to_string(), message.to_string()));
        self
    }

    /// Maps a database error of a write to this register's constraint messages.
    pub fn constraint_error(&self, e: impl Into<crate::Error>) -> crate::Error {
        let names: Vec<(&str, &str)> = self
            .constraints
            .iter()
            .map(|(c, m)| (c.as_str(), m.as_str()))
            .collect();
        e.into().on_constraint(&names)
    }

    pub fn key(mut self, k: &[&str]) -> Self {
        self.key = k.iter().map(|s| s.to_string()).collect();
        self
    }
    pub fn natural_key(mut self) -> Self {
        self.generated_key = false;
        self
    }
    /// The last key column is numbered by the server within the other key columns,
    /// which the body must name.
    pub fn seq_key(mut self) -> Self {
        self.generated_key = false;
        self.seq_key = self.key.last().cloned();
        self
    }
    /// Like `seq_key`, numbering the named key column (`PEDF_ID` within the serie).
    pub fn seq_key_on(mut self, column: &str) -> Self {
        self.generated_key = false;
        self.seq_key = Some(column.into());
        self
    }
    /// A list call whose `{FIELD}` path parameters filter by equality.
    pub fn list_path(mut self, path: &str) -> Self {
        self.list_paths.push(path.into());
        self
    }
    /// A count call whose `{FIELD}` path parameters filter by equality.
    pub fn count_path(mut self, path: &str) -> Self {
        self.count_paths.push(path.into());
        self
    }
    /// The key column numbered by the server, if any.
    pub fn generated_column(&self) -> Option<&str> {
        if self.generated_key {
            self.key.first().map(String::as_str)
        } else if let Some(c) = &self.seq_key {
            Some(c.as_str())
        } else {
            None
        }
    }
    pub fn company(mut self, c: &str) -> Self {
        self.company = Some(c.into());
        self
    }
    pub fn label(mut self, l: &str) -> Self {
        self.label = l.into();
        self
    }
    /// Lists show the label cut to `n` characters.
    pub fn label_len(mut self, n: usize) -> Self {
        self.label_len = Some(n);
        self
    }
    pub fn order(mut self, o: &str) -> Self {
        self.default_order = o.into();
        self
    }
    pub fn alias(mut self, a: &str) -> Self {
        self.aliases.push(a.into());
        self
    }
    pub fn fields(mut self, f: Vec<Field>) -> Self {
        self.fields = f;
        for f in self.fields.iter_mut() {
            if self.create_only_names.contains(&f.name) {
                f.create_only = true;
            }
        }
        self
    }
    pub fn group(mut self, title: Option<&str>, framed: bool, width: u8, fields: &[&str]) -> Self {
        self.groups.push(Group {
            title: title.map(String::from),
            framed,
            width,
            fields: fields.iter().map(|s| s.to_string()).collect(),
        });
        self
    }
    pub fn events(mut self, entity: &str) -> Self {
        self.events = Some(entity.into());
        self
    }
    pub fn search_limit(mut self, n: i64) -> Self {
        self.search_limit = n;
        self
    }
    pub fn global(mut self) -> Self {
        self.tenant = false;
        self
    }
    /// Declares a typed call of this register beyond the generic ones: `op` takes
    /// its path parameters and body as one `In` and answers an `Out` (see `call`).
    pub fn call<O: Operation>(
        self,
        method: &'static str,
        path: &str,
        name: &str,
        perm: ActionPerm,
        summary: &str,
        op: O,
    ) -> Self {
        self.declare(method, path, name, perm, None, summary, Typed::handler(op))
    }

    /// Declares a typed multipart upload call: its `file` part, of the allowed
    /// types, reaches `In` as the stored [`Upload`](super::call::Upload) in
    /// `arquivo`, beside the form's other fields.
    pub fn upload_call<O: Operation>(
        self,
        method: &'static str,
        path: &str,
        name: &str,
        types: &[&str],
        summary: &str,
        op: O,
    ) -> Self {
        let types = Some(types.iter().map(|t| t.to_string()).collect());
        self.declare(
            method,
            path,
            name,
            ActionPerm::Update,
            types,
            summary,
            Typed::handler(op),
        )
    }

    /// Declares a typed multipart form call whose files reach the service whole:
    /// the form's text fields by name and every file part, in order, as
    /// [`FormFile`](super::call::FormFile)s in `arquivos` (none: an empty list).
    /// The gateway takes at most `max_bytes` of files and checks nothing else of
    /// them: what they must be is the owning service's to check (by their bytes).
    #[allow(clippy::too_many_arguments)]
    pub fn form_call<O: Operation>(
        mut self,
        method: &'static str,
        path: &str,
        name: &str,
        perm: ActionPerm,
        max_bytes: usize,
        summary: &str,
        op: O,
    ) -> Self {
        self = self.declare(method, path, name, perm, None, summary, Typed::handler(op));
        if let Some(a) = self.actions.last_mut() {
            a.form = Some(max_bytes);
        }
        self
    }

    /// Declares a call written against the untyped [`ActionHandler`].
    pub fn action(
        self,
        method: &'static str,
        path: &str,
        name: &str,
        perm: ActionPerm,
        summary: &str,
        handler: Arc<dyn ActionHandler>,
    ) -> Self {
        let h = Arc::new(Untyped { handler, delete: method == "DELETE" });
        self.declare(method, path, name, perm, None, summary, h)
    }

    #[allow(clippy::too_many_arguments)]
    fn declare(
        mut self,
        method: &'static str,
        path: &str,
        name: &str,
        perm: ActionPerm,
        upload: Option<Vec<String>>,
        summary: &str,
        handler: Arc<dyn Handler>,
    ) -> Self {
        self.actions.push(Action {
            method,
            path: path.into(),
            name: name.into(),
            perm,
            upload,
            form: None,
            summary: summary.into(),
            handler,
            buttons: Vec::new(),
        });
        self
    }

    /// Shows the last declared call as a button on the register's screen (each
    /// call adds one more button to it).
    pub fn button(mut self, b: Button) -> Self {
        if let Some(a) = self.actions.last_mut() {
            a.buttons.push(b);
        }
        self
    }
    /// Declares a multipart upload call written against the untyped
    /// [`ActionHandler`].
    pub fn upload_action(
        self,
        method: &'static str,
        path: &str,
        name: &str,
        types: &[&str],
        summary: &str,
        handler: Arc<dyn ActionHandler>,
    ) -> Self {
        let types = Some(types.iter().map(|t| t.to_string()).collect());
        let h = Arc::new(Untyped { handler, delete: method == "DELETE" });
        self.declare(method, path, name, ActionPerm::Update, types, summary, h)
    }
    pub fn affects_principal(mut self) -> Self {
        self.affects_principal = true;
        self
    }
    pub fn screen(mut self, route: &str) -> Self {
        self.screen = Some(route.into());
        self
    }
    pub fn sample(mut self, body: Value) -> Self {
        self.sample = Some(body);
        self
    }
    pub fn company_path(mut self) -> Self {
        self.company_path = true;
        self
    }
    pub fn ids_per_client(mut self) -> Self {
        self.ids_per_client = true;
        self
    }
    pub fn hooks(mut self, h: Arc<dyn Hooks>) -> Self {
        self.hooks = Some(h);
        self
    }
    /// Fields written on create only (see `Field::create_only`), by name; the
    /// names must be declared fields (checked when the registry is built).
    pub fn create_only(mut self, names: &[&str]) -> Self {
        for f in self.fields.iter_mut() {
            if names.contains(&f.name.as_str()) {
                f.create_only = true;
            }
        }
        self.create_only_names
            .extend(names.iter().map(|n| n.to_string()));
        self
    }
    /// The register's hooks over typed views of the body and the written row.
    pub fn record_hooks<H: RecordHooks>(mut self, h: H) -> Self {
        self.hooks = Some(Arc::new(super::hooks::Typed(h)));
        self
    }

    pub fn qualified_table(&self) -> String {
        format!("{}.{}", self.schema, self.table)
    }

    pub fn field(&self, name: &str) -> Option<&Field> {
        self.fields
            .iter()
            .find(|f| f.name.eq_ignore_ascii_case(name))
    }

    pub fn is_key(&self, name: &str) -> bool {
        self.key.iter().any(|k| k == name)
    }

    pub fn is_company(&self, name: &str) -> bool {
        self.company.as_deref() == Some(name)
    }

    /// Checks the descriptor once at start-up: identifiers are plain, key, company,
    /// label and order name declared fields.
    pub fn check(&self) -> std::result::Result<(), String> {
        let ident =
            |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        if !ident(&self.schema) || !ident(&self.table) {
            return Err(format!("{}: bad table", self.name));
        }
        for f in &self.fields {
            if !ident(&f.name) || !ident(&f.column) {
                return Err(format!("{}: bad field {}", self.name, f.name));
            }
        }
        let declared = |n: &str| self.fields.iter().any(|f| f.name == n);
        if let Some(n) = self.create_only_names.iter().find(|n| !declared(n)) {
            return Err(format!("{}: create-only field {n} not declared", self.name));
        }
        if self.key.is_empty() || !self.key.iter().all(|k| declared(k)) {
            return Err(format!("{}: key must be declared fields", self.name));
        }
        if let Some(c) = &self.company {
            if !declared(c) {
                return Err(format!("{}: company column {c} not declared", self.name));
            }
        }
        if !declared(&self.label) {
            return Err(format!("{}: label {} not declared", self.name, self.label));
        }
        if self.generated_key
            && (self.key.len() != 1
                || self
                    .fields
                    .iter()
                    .any(|f| f.name == self.key[0] && f.db != DbType::Int))
        {
            return Err(format!(
                "{}: a generated key is one integer column",
                self.name
            ));
        }
        let bad_seq = self.seq_key.as_ref().is_some_and(|c| {
            self.key.len() < 2
                || !self.key.contains(c)
                || self
                    .fields
                    .iter()
                    .any(|f| &f.name == c && f.db != DbType::Int)
        });
        if bad_seq {
            return Err(format!(
                "{}: a sequence key is one integer column of several keys",
                self.name
            ));
        }
        for p in self.list_paths.iter().chain(&self.count_paths) {
            for name in p
                .split('/')
                .filter_map(|s| s.strip_prefix('{').and_then(|s| s.strip_suffix('}')))
            {
                if name != "emp" && !declared(name) {
                    return Err(format!("{}: path {p} names undeclared {name}", self.name));
                }
            }
        }
        parse_order(self, &self.default_order).map_err(|e| format!("{}: {e}", self.name))?;
        Ok(())
    }
}

/// The registers one process knows, by path root and alias.
#[derive(Clone, Default)]
pub struct Registry {
    list: Vec<Arc<Resource>>,
    by_name: HashMap<String, Arc<Resource>>,
}

impl Registry {
    pub fn new(resources: Vec<Resource>) -> std::result::Result<Registry, String> {
        let mut r = Registry::default();
        for res in resources {
            r.add(res)?;
        }
        Ok(r)
    }

    pub fn add(&mut self, res: Resource) -> std::result::Result<(), String> {
        res.check()?;
        let res = Arc::new(res);
        for n in std::iter::once(&res.name).chain(res.aliases.iter()) {
            if self.by_name.insert(n.clone(), res.clone()).is_some() {
                return Err(format!("duplicate resource path {n}"));
            }
        }
        self.list.push(res);
        Ok(())
    }

    pub fn merge(&mut self, other: &Registry) -> std::result::Result<(), String> {
        for r in &other.list {
            self.add((**r).clone())?;
        }
        Ok(())
    }

    pub fn get(&self, name: &str) -> Option<&Arc<Resource>> {
        self.by_name.get(name)
    }

    pub fn all(&self) -> &[Arc<Resource>] {
        &self.list
    }
}

/// ORDENACAO: `FIELD [ASC|DESC], ...`; only declared fields.
pub fn parse_order(res: &Resource, s: &str) -> std::result::Result<Vec<(usize, bool)>, String> {
    let mut out = Vec::new();
    if s.len() > 300 {
        return Err("Ordenação inválida.".into());
    }
    for item in s.split(',').map(str::trim).filter(|i| !i.is_empty()) {
        let mut parts = item.split_whitespace();
        let name = parts.next().unwrap_or_default();
        let desc = match parts.next().map(|d| d.to_ascii_uppercase()) {
            None => false,
            Some(d) if d == "ASC" => false,
            Some(d) if d == "DESC" => true,
            Some(_) => return Err(format!("Ordenação inválida: '{item}'.")),
        };
        if parts.next().is_some() {
            return Err(format!("Ordenação inválida: '{item}'."));
        }
        let idx = res
            .fields
            .iter()
            .position(|f| f.name.eq_ignore_ascii_case(name) && !f.write_only)
            .ok_or_else(|| format!("Ordenação inválida: '{item}'."))?;
        out.push((idx, desc));
    }
    Ok(out)
}
