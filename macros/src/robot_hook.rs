//! The one place `#[toolbox]` reaches robots (`resource(.., robot(..))`): with the `robot`
//! feature, `robot/resource.rs`; without it, a `robot(..)` is an error saying to enable it.

use proc_macro2::TokenStream;

use crate::ctxt::Ctxt;

/// What `take` found: the robots' declarations (or, without the feature, where they are).
#[cfg(feature = "robot")]
pub type Taken = Vec<crate::robot::resource::Taken>;
#[cfg(not(feature = "robot"))]
pub type Taken = Vec<proc_macro2::Span>;

/// What the robots generate: items next to the impl, and the `ToolSet::robots` fn.
pub struct Generated {
    pub items: TokenStream,
    pub robots_fn: Option<TokenStream>,
    /// The robots read (resource, index, joints).
    #[cfg(feature = "robot")]
    robots: Vec<crate::robot::fields::RobotIndex>,
}

impl Generated {
    /// The compile-time checks of `model`'s target against the robot it moves, when its
    /// target is one parameter (a struct of joint positions written by hand is checked field
    /// by field, at each field's `range`: `robot/fields.rs`).
    #[cfg(feature = "robot")]
    pub fn target_checks(
        &self,
        model: &crate::tool::ToolModel,
        self_ty: &syn::Type,
    ) -> Vec<TokenStream> {
        let Some(crate::tool::TargetModel::Point(name)) = model.target() else {
            return Vec::new();
        };
        let Some((ty, _)) = model.param(name) else {
            return Vec::new();
        };
        model
            .resources()
            .iter()
            .filter_map(|(resource, _)| self.robots.iter().find(|r| r.resource == *resource))
            .flat_map(|robot| crate::robot::fields::target_checks(ty, self_ty, robot))
            .collect()
    }

    /// Without the feature there are no robots.
    #[cfg(not(feature = "robot"))]
    pub fn target_checks(
        &self,
        _model: &crate::tool::ToolModel,
        _self_ty: &syn::Type,
    ) -> Vec<TokenStream> {
        Vec::new()
    }
}

/// `#[derive(ToolSchema)]` on a struct with named fields: the impls that check its fields
/// against a robot's joints when a tool moves the robot to it (`robot/fields.rs`).
#[cfg(feature = "robot")]
pub fn joint_fields(
    ty: &syn::Ident,
    fields: &[crate::robot::fields::FieldDecl<'_>],
) -> TokenStream {
    crate::robot::fields::derive_impls(ty, fields)
}

/// Takes the `robot(..)`s out of `#[toolbox(..)]`'s arguments.
#[cfg(feature = "robot")]
pub fn take(args: TokenStream) -> (TokenStream, Taken) {
    crate::robot::resource::take(args)
}

/// Takes the `robot(..)`s out of `#[toolbox(..)]`'s arguments.
#[cfg(not(feature = "robot"))]
pub fn take(args: TokenStream) -> (TokenStream, Taken) {
    // Found by name only, to say what to enable; darling reports the rest.
    let mut spans = Vec::new();
    fn walk(stream: TokenStream, spans: &mut Vec<proc_macro2::Span>) {
        let mut prev_robot = None;
        for tt in stream {
            match tt {
                proc_macro2::TokenTree::Ident(i) if i == "robot" => prev_robot = Some(i.span()),
                proc_macro2::TokenTree::Group(g) => {
                    if let Some(span) = prev_robot.take() {
                        spans.push(span);
                    } else {
                        walk(g.stream(), spans);
                    }
                }
                _ => prev_robot = None,
            }
        }
    }
    walk(args.clone(), &mut spans);
    (args, spans)
}

/// The robots' items, each problem reported at its token; their constants and methods are
/// added to the impl `item` (where the resources' `position` is looked for).
#[cfg(feature = "robot")]
pub fn expand(cx: &Ctxt, taken: Taken, item: &mut syn::ItemImpl) -> Generated {
    let generated = crate::robot::resource::expand(taken, &item.self_ty);
    for e in generated.errors {
        cx.push(e);
    }
    let methods = generated.methods;
    match syn::parse2::<syn::ItemImpl>(quote::quote!(impl __Robot { #methods })) {
        Ok(parsed) => item.items.extend(parsed.items),
        Err(e) => cx.push(e),
    }
    Generated {
        items: generated.items,
        robots_fn: generated.robots_fn,
        robots: generated.robots,
    }
}

/// Without the feature, each `robot(..)` is an error.
#[cfg(not(feature = "robot"))]
pub fn expand(cx: &Ctxt, taken: Taken, _item: &mut syn::ItemImpl) -> Generated {
    for span in taken {
        cx.error_at(
            span,
            "`robot(..)` reads the robot's URDF when the crate compiles: enable toolwright's \
             `robot` feature (`toolwright = { version = \"..\", features = [\"robot\"] }`)",
        );
    }
    Generated {
        items: TokenStream::new(),
        robots_fn: None,
    }
}
