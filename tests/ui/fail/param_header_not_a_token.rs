use toolwright::tool;

/// Run a query in a region.
#[tool]
fn run_query(
    /// The region to run in.
    #[param(header = "Cloud Region")]
    region: String,
    /// The tenant.
    #[param(header = "Tenant:Id")]
    tenant: String,
    /// The query.
    #[param(header = "")]
    query: String,
) {
    let _ = (region, tenant, query);
}

fn main() {}
