//! A register's fields: how each is shown (`Kind`), stored (`DbType`) and
//! validated, what it is to its document (`Role`, `Total`), and the form's groups.

use rust_decimal::Decimal;
use serde::Serialize;
use serde_json::Value;

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
    /// Written on create only: an update's body cannot change it and the engine
    /// drops it silently (what a document posted to a ledger).
    pub create_only: bool,
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
            create_only: false,
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
    /// Written on create only (see the field).
    pub fn create_only(mut self) -> Self {
        self.create_only = true;
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
