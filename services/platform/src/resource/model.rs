//! Register descriptors.

use std::collections::HashMap;
use std::sync::Arc;

use async_trait::async_trait;
use rust_decimal::Decimal;
use serde::Serialize;
use serde_json::{Map, Value};

use crate::db::Tx;
use crate::grpc::Caller;
use crate::Result;

/// How a field is shown and validated (the web client's field types).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum Kind {
    Text,
    Textarea,
    Email,
    Phones,
    Number,
    Money,
    Date,
    Combobox,
    Autocomplete,
    Chips,
    Checklist,
    AccessKey,
    Color,
    Upload,
    Gallery,
    Barcode,
    Situation,
    CpfCnpj,
    Cep,
    Password,
    Boolean,
}

/// How a field is stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DbType {
    Int,
    Text,
    Decimal,
    Date,
    Timestamp,
    Bool,
    Json,
}

/// What a column is to its document. The engine computes, checks and stamps by it;
/// the web client lays out document screens by it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Role {
    /// A line's product or service (a reference).
    Item,
    /// A line's description (taken from the item when left out).
    Description,
    /// A line's unit of measure (UN, KG...).
    UnitName,
    Quantity,
    UnitPrice,
    Discount,
    Surcharge,
    Freight,
    /// A line's net value: round2(quantity x unit price) - discount + surcharge,
    /// written by the engine.
    LineTotal,
    /// A line's unit cost (stock documents; shown, not computed here).
    UnitCost,
    /// A header's own surcharge (not from the lines), added to the surcharges total.
    ExtraSurcharge,
    /// A header's own discount, added to the discounts total.
    ExtraDiscount,
    /// The user who created the row (the engine writes it on create).
    CreatedBy,
}

/// A header total the engine computes from the lines (see `document::arithmetic`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Total {
    /// Gross value of the product lines.
    Products,
    /// Gross value of the service lines.
    Services,
    Surcharges,
    Freight,
    Discounts,
    /// products + services + surcharges + freight - discounts.
    Grand,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    Create,
    Update,
    Delete,
}

#[derive(Clone, Debug)]
pub struct Field {
    /// Legacy name (`CLI_DESCRICAO`); the column is its lower-case form unless set.
    pub name: String,
    pub column: String,
    pub label: String,
    pub kind: Kind,
    pub db: DbType,
    pub required: bool,
    pub editable: bool,
    pub length: Option<u32>,
    pub min_length: Option<u32>,
    pub min: Option<Decimal>,
    pub max: Option<Decimal>,
    /// Decimal places accepted (money 2; quantities usually 4).
    pub scale: Option<u32>,
    pub mask: Option<String>,
    pub searchable: bool,
    pub reference: Option<String>,
    pub options: Vec<(String, String)>,
    pub upload_types: Vec<String>,
    pub width: u8,
    pub in_list: bool,
    /// Shown in the register's form (false: kept and served, but no form
    /// field, e.g. a stored XML the screen offers as a download).
    pub in_form: bool,
    /// Accepted on write, never read back (passwords).
    pub write_only: bool,
    /// Maintained by the server; a body cannot set it.
    pub read_only: bool,
    /// Written by the register's hooks (`prepare`), never taken from a client's body
    /// (a document's copy of its customer's name).
    pub server: bool,
    pub default: Option<Value>,
    /// What the column is to its document (or a created-by stamp), if anything.
    pub role: Option<Role>,
    /// The header total the engine computes into this column.
    pub total: Option<Total>,
}

impl Field {
    fn new(name: &str, label: &str, kind: Kind, db: DbType) -> Field {
        Field {
            name: name.to_string(),
            column: name.to_ascii_lowercase(),
            label: label.to_string(),
            kind,
            db,
            required: false,
            editable: true,
            length: None,
            min_length: None,
            min: None,
            max: None,
            scale: None,
            mask: None,
            searchable: false,
            reference: None,
            options: Vec::new(),
            upload_types: Vec::new(),
            width: 6,
            in_list: false,
            in_form: true,
            write_only: false,
            read_only: false,
            server: false,
            default: None,
            role: None,
            total: None,
        }
    }

    pub fn id(name: &str, label: &str) -> Field {
        Field::new(name, label, Kind::Number, DbType::Int)
            .read_only()
            .list()
            .width(2)
    }
    pub fn int(name: &str, label: &str) -> Field {
        Field::new(name, label, Kind::Number, DbType::Int)
    }
    pub fn decimal(name: &str, label: &str) -> Field {
        Field::new(name, label, Kind::Number, DbType::Decimal)
    }
    pub fn money(name: &str, label: &str) -> Field {
        Field::new(name, label, Kind::Money, DbType::Decimal)
            .min("0")
            .scale(2)
    }
    pub fn text(name: &str, label: &str) -> Field {
        Field::new(name, label, Kind::Text, DbType::Text)
    }
    pub fn textarea(name: &str, label: &str) -> Field {
        Field::new(name, label, Kind::Textarea, DbType::Text).width(12)
    }
    pub fn email(name: &str, label: &str) -> Field {
        Field::new(name, label, Kind::Email, DbType::Text).len(250)
    }
    pub fn phones(name: &str, label: &str) -> Field {
        Field::new(name, label, Kind::Phones, DbType::Text)
            .len(250)
            .mask("(##) #####-####")
    }
    pub fn date(name: &str, label: &str) -> Field {
        Field::new(name, label, Kind::Date, DbType::Date).width(3)
    }
    pub fn timestamp(name: &str, label: &str) -> Field {
        Field::new(name, label, Kind::Text, DbType::Timestamp).read_only()
    }
    pub fn boolean(name: &str, label: &str) -> Field {
        Field::new(name, label, Kind::Boolean, DbType::Bool)
    }
    pub fn cpf_cnpj(name: &str, label: &str) -> Field {
        Field::new(name, label, Kind::CpfCnpj, DbType::Text)
            .len(18)
            .searchable()
    }
    pub fn cep(name: &str, label: &str) -> Field {
        Field::new(name, label, Kind::Cep, DbType::Text)
            .len(9)
            .mask("#####-###")
            .width(3)
    }
    pub fn color(name: &str, label: &str) -> Field {
        Field::new(name, label, Kind::Color, DbType::Text)
            .len(7)
            .width(3)
    }
    pub fn access_key(name: &str, label: &str) -> Field {
        Field::new(name, label, Kind::AccessKey, DbType::Text)
            .len(44)
            .width(12)
    }
    pub fn password(name: &str, label: &str) -> Field {
        let mut f = Field::new(name, label, Kind::Password, DbType::Text).len(128);
        f.write_only = true;
        f
    }
    pub fn upload(name: &str, label: &str, types: &[&str]) -> Field {
        let mut f = Field::new(name, label, Kind::Upload, DbType::Text).read_only();
        f.upload_types = types.iter().map(|s| s.to_string()).collect();
        f
    }
    /// A reference to another register shown as a combobox (or autocomplete when
    /// the referenced register is large).
    pub fn reference(name: &str, label: &str, resource: &str, kind: Kind) -> Field {
        let mut f = Field::new(name, label, kind, DbType::Int);
        f.reference = Some(resource.to_string());
        f
    }
    /// A JSON value (lists of ids picked in a chip combobox).
    pub fn new_json(name: &str, label: &str, kind: Kind) -> Field {
        Field::new(name, label, kind, DbType::Json)
    }
    pub fn reference_to(mut self, resource: &str) -> Self {
        self.reference = Some(resource.to_string());
        self
    }
    /// A code from a fixed list (`options`: value, text).
    pub fn options(name: &str, label: &str, db: DbType, opts: &[(&str, &str)]) -> Field {
        let mut f = Field::new(name, label, Kind::Combobox, db);
        f.options = opts
            .iter()
            .map(|(v, t)| (v.to_string(), t.to_string()))
            .collect();
        f
    }
    /// Situation 1 = Ativado, otherwise Desativado.
    pub fn situation(name: &str) -> Field {
        let mut f = Field::new(name, "Situação", Kind::Situation, DbType::Int)
            .list()
            .width(3);
        f.options = vec![
            ("1".into(), "Ativado".into()),
            ("0".into(), "Desativado".into()),
        ];
        f.default = Some(Value::from(1));
        f
    }

    pub fn required(mut self) -> Self {
        self.required = true;
        self
    }
    pub fn len(mut self, n: u32) -> Self {
        self.length = Some(n);
        self
    }
    pub fn min_len(mut self, n: u32) -> Self {
        self.min_length = Some(n);
        self
    }
    pub fn min(mut self, v: &str) -> Self {
        self.min = v.parse().ok();
        self
    }
    pub fn max(mut self, v: &str) -> Self {
        self.max = v.parse().ok();
        self
    }
    pub fn scale(mut self, places: u32) -> Self {
        self.scale = Some(places);
        self
    }
    pub fn mask(mut self, m: &str) -> Self {
        self.mask = Some(m.to_string());
        self
    }
    pub fn searchable(mut self) -> Self {
        self.searchable = true;
        self
    }
    pub fn list(mut self) -> Self {
        self.in_list = true;
        self
    }
    /// Not shown in the form (the metadata says `inForm: false`).
    pub fn not_in_form(mut self) -> Self {
        self.in_form = false;
        self
    }
    pub fn width(mut self, w: u8) -> Self {
        self.width = w.clamp(1, 12);
        self
    }
    pub fn read_only(mut self) -> Self {
        self.read_only = true;
        self.editable = false;
        self
    }
    pub fn column(mut self, c: &str) -> Self {
        self.column = c.to_string();
        self
    }
    pub fn default(mut self, v: Value) -> Self {
        self.default = Some(v);
        self
    }
    pub fn kind(mut self, k: Kind) -> Self {
        self.kind = k;
        self
    }
    /// What the column is to its document (`LineTotal` and `CreatedBy` are written by
    /// the engine, so they are read-only to clients).
    pub fn role(mut self, r: Role) -> Self {
        self.role = Some(r);
        if matches!(r, Role::LineTotal | Role::CreatedBy) {
            self = self.read_only();
        }
        self
    }
    /// Filled by the register's hooks from other tables; clients cannot set it.
    pub fn server(mut self) -> Self {
        self.server = true;
        self.editable = false;
        self
    }
    /// A header total computed by the engine (read-only to clients).
    pub fn total(mut self, t: Total) -> Self {
        self.total = Some(t);
        self.read_only()
    }
}

#[derive(Clone, Debug, Serialize)]
pub struct Group {
    pub title: Option<String>,
    pub framed: bool,
    pub width: u8,
    pub fields: Vec<String>,
}

/// Register-specific behaviour around the generic writes.
#[async_trait]
pub trait Hooks: Send + Sync {
    /// Runs after the body was parsed, before validation (hash a password, derive a
    /// column).
    async fn before_write(
        &self,
        _op: Op,
        _caller: &Caller,
        _body: &mut Map<String, Value>,
    ) -> Result<()> {
        Ok(())
    }
    /// Runs in the transaction after `before_write`, before validation: fills what
    /// comes from other tables (a line's description and price from a copy).
    async fn prepare(
        &self,
        _tx: &mut Tx,
        _op: Op,
        _caller: &Caller,
        _emp: Option<i64>,
        _body: &mut Map<String, Value>,
    ) -> Result<()> {
        Ok(())
    }
    /// Runs in the same transaction after the row was written.
    async fn after_write(
        &self,
        _tx: &mut Tx,
        _op: Op,
        _caller: &Caller,
        _row: &Value,
    ) -> Result<()> {
        Ok(())
    }
}

/// Which permission of the owning program an action needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ActionPerm {
    View,
    Create,
    Update,
    Delete,
}

/// A register's own call: runs in a tenant transaction of the owning service.
#[async_trait]
pub trait ActionHandler: Send + Sync {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value>;
}

/// One call of a declared action: the register it is declared on, who calls, the
/// company of the request, the path parameters by name and the JSON body (for
/// uploads, `{"arquivo": {"nome", "original", "tamanho"}}` plus the form's other
/// fields).
pub struct Call<'a> {
    pub res: &'a Resource,
    pub caller: &'a Caller,
    pub emp: Option<i64>,
    pub params: &'a HashMap<String, String>,
    pub body: Value,
}

/// The stored and original names of the file an upload call received (the gateway
/// puts them in the body as `arquivo`).
pub fn uploaded_file(body: &Value) -> Result<(&str, Option<&str>)> {
    let file = body.get("arquivo");
    let name = file
        .and_then(|f| f.get("nome"))
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
        .ok_or_else(|| crate::Error::validation("Arquivo é obrigatório!"))?;
    Ok((
        name,
        file.and_then(|f| f.get("original")).and_then(Value::as_str),
    ))
}

/// The key under which a declared call answers a file instead of JSON: the gateway
/// sends its bytes with the content type and a download name (see [`file_reply`]).
pub const FILE_REPLY: &str = "$arquivo";

/// A declared call's answer that is a file (a PDF, a spreadsheet): the gateway
/// answers the bytes themselves with `Content-Type` and
/// `Content-Disposition: inline; filename="…"`.
pub fn file_reply(content_type: &str, name: &str, bytes: &[u8]) -> Value {
    use base64::Engine;
    serde_json::json!({FILE_REPLY: {
        "tipo": content_type,
        "nome": name,
        "base64": base64::engine::general_purpose::STANDARD.encode(bytes),
    }})
}

/// Where a value a button sends comes from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase", tag = "from", content = "value")]
pub enum Source {
    /// A field of the record on screen.
    Field(String),
    /// The signed-in user's id.
    User,
    /// A fixed value.
    Const(String),
}

/// How a declared call shows on its register's screen (a document's transition or
/// conversion), for the web client to render from the metadata.
#[derive(Clone, Debug, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Button {
    pub label: String,
    /// Asked before running: title, text (`{FIELD}` is replaced by the record's
    /// value), the OK button's text.
    pub confirm: Option<(String, String, String)>,
    /// Status values in which it is enabled (empty: any).
    pub open_when: Vec<String>,
    /// A boolean field that disables it when true (the requisition already made).
    pub unless: Option<String>,
    /// Path parameters that are not a field of the record with the same name, the
    /// company (`emp`) or the user (`user`, `userId`).
    pub params: Vec<(String, Source)>,
    /// The body, when the call takes one.
    pub body: Vec<(String, Source)>,
    /// A dialog to fill before running (`surcharge`: value or percentage).
    pub dialog: Option<String>,
    /// The register whose edit screen the answer opens (the answer carries its key);
    /// none: stay and reload.
    pub opens: Option<String>,
    /// The screen's main call (drawn as the primary button).
    pub primary: bool,
    /// The dialog's title, when it has one.
    pub dialog_title: Option<String>,
    /// The call answers a file (XML, PDF) that the browser downloads.
    pub download: bool,
}

impl Button {
    pub fn new(label: &str) -> Button {
        Button { label: label.into(), ..Default::default() }
    }
    pub fn confirm(mut self, title: &str, text: &str, ok: &str) -> Self {
        self.confirm = Some((title.into(), text.into(), ok.into()));
        self
    }
    pub fn open_when(mut self, status: &[&str]) -> Self {
        self.open_when = status.iter().map(|s| s.to_string()).collect();
        self
    }
    pub fn unless(mut self, field: &str) -> Self {
        self.unless = Some(field.into());
        self
    }
    pub fn param(mut self, name: &str, from: Source) -> Self {
        self.params.push((name.into(), from));
        self
    }
    pub fn body(mut self, name: &str, from: Source) -> Self {
        self.body.push((name.into(), from));
        self
    }
    /// A dialog of `kind` titled `title` asked before running.
    pub fn dialog(mut self, kind: &str, title: &str) -> Self {
        self.dialog = Some(kind.into());
        self.dialog_title = Some(title.into());
        self
    }
    pub fn primary(mut self) -> Self {
        self.primary = true;
        self
    }
    pub fn opens(mut self, resource: &str) -> Self {
        self.opens = Some(resource.into());
        self
    }
    /// The answer is a file to download, not a record to show.
    pub fn download(mut self) -> Self {
        self.download = true;
        self
    }
}

#[derive(Clone)]
pub struct Action {
    /// `GET`, `POST`, `PUT`, `DELETE`.
    pub method: &'static str,
    /// Legacy path with `{name}` parameters; `{emp}` is the company (guarded).
    pub path: String,
    pub name: String,
    pub perm: ActionPerm,
    /// Multipart upload: the allowed types of its `file` part.
    pub upload: Option<Vec<String>>,
    pub summary: String,
    /// What runs it in the owning service; none when a typed call of the service's
    /// own API serves it (a document transition): the gateway routes it there.
    pub handler: Option<Arc<dyn ActionHandler>>,
    /// Shown as buttons on the register's screen (one call may be offered
    /// several ways: the NF-e manifest's four events are one call).
    pub buttons: Vec<Button>,
}

impl Action {
    /// Runs the call's handler (tests and in-process callers); a transition served
    /// by a typed API has none here.
    pub async fn run(
        &self,
        tx: &mut Tx,
        res: &Resource,
        caller: &Caller,
        emp: Option<i64>,
        params: &HashMap<String, String>,
        body: Value,
    ) -> Result<Value> {
        match &self.handler {
            Some(h) => {
                let call = Call { res, caller, emp, params, body };
                h.run(tx, call).await
            }
            None => Err(crate::Error::NotFound(format!(
                "Ação '{}' atendida por outra chamada.",
                self.name
            ))),
        }
    }
}

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
    /// Declares a call of this register beyond the generic ones.
    pub fn action(
        mut self,
        method: &'static str,
        path: &str,
        name: &str,
        perm: ActionPerm,
        summary: &str,
        handler: Arc<dyn ActionHandler>,
    ) -> Self {
        self.actions.push(Action {
            method,
            path: path.into(),
            name: name.into(),
            perm,
            upload: None,
            summary: summary.into(),
            handler: Some(handler),
            buttons: Vec::new(),
        });
        self
    }
    /// Declares a transition served by the owning service's typed API (the gateway
    /// routes its path there); it is described here for the routes, the OpenAPI
    /// contract and the screen's button.
    pub fn transition(
        mut self,
        method: &'static str,
        path: &str,
        name: &str,
        perm: ActionPerm,
        summary: &str,
    ) -> Self {
        self.actions.push(Action {
            method,
            path: path.into(),
            name: name.into(),
            perm,
            upload: None,
            summary: summary.into(),
            handler: None,
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
    /// Declares a multipart upload call (`file` part of the allowed types).
    pub fn upload_action(
        mut self,
        method: &'static str,
        path: &str,
        name: &str,
        types: &[&str],
        summary: &str,
        handler: Arc<dyn ActionHandler>,
    ) -> Self {
        self.actions.push(Action {
            method,
            path: path.into(),
            name: name.into(),
            perm: ActionPerm::Update,
            upload: Some(types.iter().map(|t| t.to_string()).collect()),
            summary: summary.into(),
            handler: Some(handler),
            buttons: Vec::new(),
        });
        self
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

// ---- Documents as the engine resolved them (see `document`): they live beside
// `Resource` because each holds the other.

/// Which copy of the catalog a line's item is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum LineKind {
    Product,
    Service,
}

/// How one kind of line belongs to its document.
#[derive(Clone, Debug)]
pub struct Lines {
    pub kind: LineKind,
    /// 'Produtos', 'Serviços'.
    pub title: String,
    /// 'produto' ('Adicionar produto').
    pub item_name: String,
    /// The line's fields naming the header, in the header key's order.
    pub parent: Vec<String>,
    /// What the user edits in place on a line.
    pub editable: Vec<Role>,
    /// A boolean header field that, once true, locks these lines, and what a write
    /// is answered then (a service order's parts after they left stock).
    pub locked_by: Option<(String, String)>,
}

impl Lines {
    pub fn new(kind: LineKind, title: &str, item_name: &str, parent: &[&str]) -> Lines {
        Lines {
            kind,
            title: title.into(),
            item_name: item_name.into(),
            parent: parent.iter().map(|s| s.to_string()).collect(),
            editable: Vec::new(),
            locked_by: None,
        }
    }
    pub fn products(parent: &[&str]) -> Lines {
        Lines::new(LineKind::Product, "Produtos", "produto", parent)
    }
    pub fn services(parent: &[&str]) -> Lines {
        Lines::new(LineKind::Service, "Serviços", "serviço", parent)
    }
    pub fn title(mut self, title: &str, item_name: &str) -> Self {
        self.title = title.into();
        self.item_name = item_name.into();
        self
    }
    pub fn editable(mut self, roles: &[Role]) -> Self {
        self.editable = roles.to_vec();
        self
    }
    /// Once the header's boolean `field` is true, these lines refuse every write
    /// with `msg`.
    pub fn locked_by(mut self, field: &str, msg: &str) -> Self {
        self.locked_by = Some((field.into(), msg.into()));
        self
    }
}

/// What a line's item is, for the fields a line leaves out.
#[derive(Clone, Debug, Default)]
pub struct ItemInfo {
    pub description: String,
    pub unit_name: Option<String>,
    pub price: Option<rust_decimal::Decimal>,
}

/// Where a document's lines find their items (the service's copy of the
/// catalog): a line created without description, unit or price takes them from
/// here.
#[async_trait::async_trait]
pub trait ItemSource: Send + Sync {
    async fn item(
        &self,
        tx: &mut crate::db::Tx,
        kind: LineKind,
        client: i64,
        emp: i64,
        id: i64,
    ) -> crate::Result<Option<ItemInfo>>;
}

/// A column of a table as the engine's SQL needs it.
#[derive(Clone, Debug)]
pub struct Col {
    pub name: String,
    pub column: String,
    pub db: DbType,
}

impl Col {
    pub(crate) fn of(f: &Field) -> Col {
        Col { name: f.name.clone(), column: f.column.clone(), db: f.db }
    }

    /// The bind cast of a key value travelling as text.
    pub fn cast(&self) -> &'static str {
        match self.db {
            DbType::Int => "bigint",
            _ => "text",
        }
    }
}

#[derive(Clone, Debug)]
pub struct StatusDef {
    pub col: Col,
    pub open: Vec<String>,
    /// 'Pedido já faturado não pode ser alterado.'
    pub issued: String,
    pub labels: Vec<(String, String)>,
    /// Badge tone by status value.
    pub tones: Vec<(String, String)>,
}

#[derive(Clone)]
pub struct LineDef {
    pub resource: String,
    pub lines: Lines,
    pub table: String,
    pub company: Option<Col>,
    /// The line's columns naming the header, in the header key's order.
    pub parent: Vec<Col>,
    pub key: Vec<Col>,
    pub seq: Option<String>,
    pub roles: Vec<(Role, Col)>,
    /// The header's boolean column that locks these lines, and the message.
    pub locked_by: Option<(Col, String)>,
    /// The line register without its document part: what duplication writes
    /// through before the engine recomputes the copy.
    pub plain: Arc<Resource>,
}

impl LineDef {
    pub fn col(&self, role: Role) -> Option<&Col> {
        self.roles.iter().find(|(r, _)| *r == role).map(|(_, c)| c)
    }
}

/// A document resolved from its declaration: the columns the engine's SQL uses,
/// all taken from the registers' fields.
pub struct DocumentDef {
    pub header: String,
    pub schema: String,
    pub table: String,
    pub company: Option<Col>,
    pub key: Vec<Col>,
    pub status: Option<StatusDef>,
    /// 'Pedido não encontrado.'
    pub missing: String,
    pub totals: Vec<(Total, Col)>,
    pub extras: Vec<(Role, Col)>,
    pub lines: Vec<LineDef>,
    pub children: Vec<ChildDef>,
    pub date_field: Option<String>,
    pub breadcrumbs: Vec<String>,
    pub block_stock: bool,
    /// Header fields copied by duplication (what a user typed: not keys, status,
    /// totals, stamps or other server-kept columns).
    pub copied: Vec<String>,
    pub items: Option<Arc<dyn ItemSource>>,
}

/// Which part of its document a register is.
#[derive(Clone)]
pub struct DocPart {
    pub def: Arc<DocumentDef>,
    pub part: Part,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    Header,
    Line(usize),
    Child(usize),
}

/// A row of the document that is not a line.
#[derive(Clone, Debug)]
pub struct ChildDef {
    pub resource: String,
    /// The child register's title ('Pagamentos', 'Fretes'): the heading of its
    /// table on the document screen.
    pub title: String,
    pub company: Option<Col>,
    pub parent: Vec<Col>,
}

impl DocumentDef {
    pub fn is_open(&self, status: &str) -> bool {
        self.status
            .as_ref()
            .is_none_or(|s| s.open.iter().any(|o| o == status))
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
