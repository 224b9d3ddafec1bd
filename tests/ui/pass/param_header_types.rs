//! `header` applies to what `x-mcp-header` allows: strings (also a string newtype and a unit-only
//! enum deriving `ToolSchema`), integers and booleans, also inside `Option`, next to the other
//! keys; header names are unique within a tool only.
use serde::Deserialize;
use toolwright::{ToolSchema, tool, toolbox, tools};

/// A cloud region.
#[derive(Deserialize, ToolSchema)]
#[serde(rename_all = "kebab-case")]
enum Region {
    /// Western Europe.
    EuWest,
    /// Eastern US.
    UsEast,
}

/// A tenant id.
#[derive(Deserialize, ToolSchema)]
struct TenantId(String);

/// Run a query.
#[tool(read_only)]
fn run_query(
    /// The region to run in.
    #[param(header = "Region")]
    region: Region,
    /// The tenant.
    #[param(header = "Tenant", pattern = "^t-")]
    tenant: TenantId,
    /// The shard.
    #[param(header = "Shard", range = 0..=63)]
    shard: u16,
    /// Whether to explain the plan.
    #[param(header = "Explain", default = false)]
    explain: bool,
    /// The trace id, if any.
    #[param(header = "X_Trace.id~1")]
    trace: Option<String>,
) {
    let _ = (region, tenant.0, shard, explain, trace);
}

struct Db;

#[toolbox]
impl Db {
    /// Count rows.
    #[tool(read_only)]
    fn count_rows(
        &self,
        /// The region to count in.
        #[param(header = "Region")]
        region: String,
        /// The table.
        #[param(header = "Table")]
        table: Option<Box<str>>,
        /// Rows per page.
        #[param(header = "Page-Size")]
        page: Option<i64>,
    ) -> u64 {
        let _ = (region, table, page);
        0
    }
}

fn main() {
    let _ = tools![run_query].build().unwrap();
    let _ = toolwright::Toolbox::new(Db);
}
