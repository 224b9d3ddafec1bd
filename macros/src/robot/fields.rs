//! A hand-written struct of joint positions against the robot it moves, at compile time (the
//! runtime's `robot/fields.rs` says how the two macros meet): `#[derive(ToolSchema)]` writes,
//! for a struct with named fields, a `JointRanges` impl generic over the robot whose `CHECK`
//! fails at the field's own tokens ([`derive_impls`]); `#[toolbox]` requires that `CHECK` for
//! each joint of the robot a tool's target moves ([`target_checks`]).

use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned};
use syn::{Ident, Type};

use crate::property::Property;
use crate::typecheck::At;

/// One field of the struct, as the derive read it.
pub struct FieldDecl<'a> {
    /// Its name in the input schema (serde's, on the deserialize side).
    pub name: &'a str,
    /// The field's own name.
    pub ident: &'a Ident,
    /// Its `#[param]`.
    pub decl: &'a Property,
}

/// The impls of the struct `ty` with `fields` (those read on input, not flattened): the
/// `JointFields` marker and `JointRanges<S, I, K>` for every robot, one check per field.
pub fn derive_impls(ty: &Ident, fields: &[FieldDecl<'_>]) -> TokenStream {
    let p = crate::runtime::private();
    // A unit toolwright does not know is an error where it is read already.
    let checks = fields
        .iter()
        .filter(|f| f.decl.attr.unit.is_none() || f.decl.unit.is_some())
        .map(field_check);
    quote! {
        #[automatically_derived]
        #[allow(unused_qualifications)]
        impl #p::JointFields for #ty {}
        #[automatically_derived]
        #[allow(unused_qualifications)]
        impl<__TwS: #p::RobotOf<__TW_I>, const __TW_I: usize, const __TW_K: usize>
            #p::JointRanges<__TwS, __TW_I, __TW_K> for #ty
        {
            #[allow(clippy::all)]
            const CHECK: () = {
                #(#checks)*
            };
        }
    }
}

/// The check of one field against joint `__TW_K` of the robot: a `const` panic spanned at the
/// token the problem is about.
fn field_check(f: &FieldDecl<'_>) -> TokenStream {
    let p = crate::runtime::private();
    let name = f.name;
    let decl = f.decl;
    let unit = match decl.unit {
        Some(u) => {
            let symbol = u.symbol;
            quote!(#p::Some(#symbol))
        }
        None => quote!(#p::None),
    };
    let bound = |b: &Option<crate::property::RangeBound>| match b {
        Some(b) => {
            let e = &b.expr;
            quote_spanned!(At::of(e).start=> #p::Some((#e) as f64))
        }
        None => quote!(#p::None),
    };
    let (min, max) = (bound(&decl.min), bound(&decl.max));
    let ident = At::of(f.ident);
    let unit_at = decl
        .attr
        .unit
        .as_ref()
        .map_or(ident, |u| At::span(u.span()));
    let lower_at = decl
        .min
        .as_ref()
        .or(decl.max.as_ref())
        .map_or(ident, |b| At::of(&b.expr));
    let upper_at = decl
        .max
        .as_ref()
        .or(decl.min.as_ref())
        .map_or(ident, |b| At::of(&b.expr));
    let panic = |at: At| {
        let span: Span = at.start;
        at.panic(quote_spanned!(span=> "{}", __tw_msg.as_str()))
    };
    let (at_unit, at_ident, at_lower, at_upper) = (
        panic(unit_at),
        panic(ident),
        panic(lower_at),
        panic(upper_at),
    );
    quote! {
        {
            const __TW_FIELD: #p::JointField = #p::JointField {
                name: #name,
                unit: #unit,
                min: #min,
                max: #max,
            };
            let __tw_robot = &<__TwS as #p::RobotOf<__TW_I>>::ROBOT;
            let __tw_problem = #p::joint_field_problem(__tw_robot, __TW_K, &__TW_FIELD);
            if !::core::matches!(__tw_problem, #p::JointFieldProblem::Fine) {
                let __tw_msg = #p::joint_field_message(
                    __tw_robot,
                    <__TwS as #p::RobotOf<__TW_I>>::RESOURCE,
                    __TW_K,
                    &__TW_FIELD,
                    __tw_problem,
                );
                match __tw_problem {
                    #p::JointFieldProblem::Unit => #at_unit,
                    #p::JointFieldProblem::NoRange => #at_ident,
                    #p::JointFieldProblem::Lower => #at_lower,
                    _ => #at_upper,
                }
            }
        }
    }
}

/// The robots of a toolbox: each resource's name, its index among the robots and its number of
/// parameter joints.
#[derive(Clone)]
pub struct RobotIndex {
    pub resource: String,
    pub index: usize,
    pub joints: usize,
}

/// The checks of a tool's target type `ty` against robot `robot` of the toolbox `self_ty`: one
/// `const` per joint (so each field's mistake is its own error), each requiring the type's
/// `JointRanges` check (a type the derive did not write passes: `JointFieldsFallback`). The
/// note rustc adds ("erroneous constant encountered") points at the parameter's type.
pub fn target_checks(ty: &Type, self_ty: &Type, robot: &RobotIndex) -> Vec<TokenStream> {
    if mentions_self(ty) {
        // Outside the impl `Self` names nothing; the published schema is checked at build.
        return Vec::new();
    }
    let p = crate::runtime::private();
    let at = At::of(ty);
    let check = at.respan(quote!(<__TwX as #p::JointRanges<__TwS, __TW_I, __TW_K>>::CHECK));
    let i = robot.index;
    (0..robot.joints)
        .map(|k| {
            quote! {
                #[allow(clippy::all)]
                const _: () = {
                    #[allow(unused_imports)]
                    use #p::JointFieldsFallback as _;
                    const fn __tw_joint<
                        __TwX: #p::JointRanges<__TwS, __TW_I, __TW_K>,
                        __TwS: #p::RobotOf<__TW_I>,
                        const __TW_I: usize,
                        const __TW_K: usize,
                    >(_: #p::JointFieldsOf<__TwX>) {
                        #check
                    }
                    __tw_joint::<_, #self_ty, #i, #k>(<#p::Probe<#ty>>::JOINT_FIELDS)
                };
            }
        })
        .collect()
}

/// Whether `ty` names `Self` anywhere.
fn mentions_self(ty: &Type) -> bool {
    fn walk(tokens: TokenStream) -> bool {
        tokens.into_iter().any(|t| match t {
            proc_macro2::TokenTree::Ident(i) => i == "Self",
            proc_macro2::TokenTree::Group(g) => walk(g.stream()),
            _ => false,
        })
    }
    walk(quote!(#ty))
}
