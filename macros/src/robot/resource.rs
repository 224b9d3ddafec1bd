//! `#[toolbox(resource(name = "arm", position = joints, robot(..), envelope(..)))]`: a resource
//! that is a robot described by its URDF.
//!
//! The `robot(..)` keys are not `syn::Meta` (a package map's names are strings), so they are
//! taken out of the attribute's tokens before `resource(..)` is parsed ([`take`]); the resource
//! keeps its envelope, and its `position` (which names the method returning the joint
//! positions) is pointed at a generated method returning the tool point (forward kinematics,
//! in the envelope's unit), so the envelope's own checks stand. [`expand`] then reads each
//! robot (`super::read`) and writes, on the toolbox's type, the `RobotDef` constant, the joint
//! positions' and the tool point's methods, the `ToolSet::robots` body, and the joint-position
//! type when `joints = Type` names one.

use proc_macro2::{Delimiter, Group, Ident, Span, TokenStream, TokenTree};
use quote::{format_ident, quote};

use super::model::Robot;

/// A `robot(..)` taken out of a `resource(..)`.
pub struct Taken {
    /// The resource's `name = ".."`.
    pub resource: String,
    /// What `robot(..)` holds, and its span.
    pub tokens: TokenStream,
    pub span: Span,
    /// The resource's `position = method` (the joint positions), taken out.
    pub position: Option<TokenStream>,
    /// The resource's envelope's `unit = ".."`.
    pub unit: Option<String>,
}

/// The items of a comma-separated token list, at the top level.
fn items(stream: TokenStream) -> Vec<Vec<TokenTree>> {
    let mut out = vec![Vec::new()];
    for tt in stream {
        match &tt {
            TokenTree::Punct(p) if p.as_char() == ',' => out.push(Vec::new()),
            _ => out.last_mut().expect("one").push(tt),
        }
    }
    out.retain(|i| !i.is_empty());
    out
}

/// `key` of an item `key = ..` or `key(..)`.
fn key(item: &[TokenTree]) -> Option<String> {
    match item.first() {
        Some(TokenTree::Ident(i)) => Some(i.to_string()),
        _ => None,
    }
}

/// The string literal's value of `key = "value"`.
fn string_value(item: &[TokenTree]) -> Option<String> {
    match item {
        [_, TokenTree::Punct(eq), TokenTree::Literal(lit)] if eq.as_char() == '=' => {
            let s = lit.to_string();
            s.strip_prefix('"')?.strip_suffix('"').map(str::to_owned)
        }
        _ => None,
    }
}

fn join(items: Vec<Vec<TokenTree>>) -> TokenStream {
    let mut out = TokenStream::new();
    for (i, item) in items.into_iter().enumerate() {
        if i > 0 {
            out.extend(quote!(,));
        }
        out.extend(item);
    }
    out
}

/// Takes every `robot(..)` out of the `resource(..)`s of `args` (the arguments of
/// `#[toolbox(..)]`): the arguments without them, and what was taken, in order. A resource
/// with a robot has its `position = m` replaced by the generated tool point's method.
pub fn take(args: TokenStream) -> (TokenStream, Vec<Taken>) {
    let mut taken = Vec::new();
    let mut out = Vec::new();
    for item in items(args) {
        let is_resource = key(&item).as_deref() == Some("resource")
            && matches!(item.get(1), Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Parenthesis)
            && item.len() == 2;
        if !is_resource {
            out.push(item);
            continue;
        }
        let TokenTree::Group(group) = &item[1] else {
            unreachable!()
        };
        let inner = items(group.stream());
        let Some(robot) = inner.iter().position(|i| {
            key(i).as_deref() == Some("robot")
                && matches!(i.get(1), Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Parenthesis)
        }) else {
            out.push(item);
            continue;
        };
        let index = taken.len();
        let mut inner = inner;
        let robot_item = inner.remove(robot);
        let TokenTree::Group(robot_group) = &robot_item[1] else {
            unreachable!()
        };
        let resource = inner
            .iter()
            .find(|i| key(i).as_deref() == Some("name"))
            .and_then(|i| string_value(i))
            .unwrap_or_default();
        let unit = inner
            .iter()
            .find(|i| key(i).as_deref() == Some("envelope"))
            .and_then(|i| match i.get(1) {
                Some(TokenTree::Group(g)) => items(g.stream())
                    .iter()
                    .find(|u| key(u).as_deref() == Some("unit"))
                    .and_then(|u| string_value(u)),
                _ => None,
            });
        let mut position = None;
        for i in inner.iter_mut() {
            if key(i).as_deref() == Some("position") && i.len() > 2 {
                position = Some(i[2..].iter().cloned().collect::<TokenStream>());
                let generated =
                    format_ident!("__tw_robot_{}_tool_point", index, span = i[0].span());
                i.truncate(2);
                i.push(TokenTree::Ident(generated));
            }
        }
        taken.push(Taken {
            resource,
            tokens: robot_group.stream(),
            span: robot_item[0]
                .span()
                .join(robot_group.span())
                .unwrap_or(robot_item[0].span()),
            position,
            unit,
        });
        let mut rebuilt = Group::new(Delimiter::Parenthesis, join(inner));
        rebuilt.set_span(group.span());
        out.push(vec![item[0].clone(), TokenTree::Group(rebuilt)]);
    }
    (join(out), taken)
}

/// What the robots of a toolbox generate.
pub struct Generated {
    /// Items of the impl itself: the `RobotDef` constants and the methods (the resource's
    /// `position` check looks for the tool point's method there).
    pub methods: TokenStream,
    /// Items next to the impl: the joint-position types.
    pub items: TokenStream,
    /// The body of `ToolSet::robots`, when there are robots.
    pub robots_fn: Option<TokenStream>,
    /// The robots read, for the checks of the tools' targets (`super::fields`).
    pub robots: Vec<super::fields::RobotIndex>,
    pub errors: Vec<syn::Error>,
}

/// The constants, methods and types of `taken`, on the impl of `self_ty`.
pub fn expand(taken: Vec<Taken>, self_ty: &syn::Type) -> Generated {
    let p = crate::runtime::private();
    let mut errors = Vec::new();
    let mut items = TokenStream::new();
    let mut methods = TokenStream::new();
    let mut resources = Vec::new();
    let mut robots = Vec::new();
    for (i, t) in taken.into_iter().enumerate() {
        // Whatever goes wrong, the resource's `position` names a method that exists.
        let tool_point = format_ident!("__tw_robot_{}_tool_point", i);
        let stub = quote! {
            #[doc(hidden)]
            fn #tool_point(&self) -> #p::Option<[f64; 3]> {
                #p::None
            }
        };
        let Some(attr) = super::attr::parse(t.tokens, t.span, &mut errors) else {
            methods.extend(stub);
            continue;
        };
        let Some(position) = &t.position else {
            errors.push(syn::Error::new(
                t.span,
                format!(
                    "a robot resource needs `position = method`: a method of this impl taking \
                     `&self` and returning where the joints are (the joint-position type, \
                     `Vec<f64>` or `[f64; N]` in the robot's joint order, or an `Option` of \
                     one), so a motion can be checked from there (resource `{}`)",
                    t.resource
                ),
            ));
            methods.extend(stub);
            continue;
        };
        let unit = t.unit.clone().unwrap_or_default();
        if !matches!(unit.as_str(), "m" | "cm" | "mm") {
            errors.push(syn::Error::new(
                t.span,
                "a robot resource needs an `envelope(..)` in a length unit (`unit = \"mm\"`, \
                 \"cm\" or \"m\"): every link is checked against it",
            ));
            methods.extend(stub);
            continue;
        }
        let robot = match super::read(&attr.decl, &super::codegen::manifest_dir()) {
            Ok(robot) => robot,
            Err(problems) => {
                for problem in problems.0 {
                    errors.push(syn::Error::new(attr.span_of(problem.site), problem.message));
                }
                methods.extend(stub);
                continue;
            }
        };
        let def = super::codegen::robot_def(&robot);
        let konst = format_ident!("__TW_ROBOT_{}", i);
        let joints_fn = format_ident!("__tw_robot_{}_joints", i);
        methods.extend(quote! {
            #[doc(hidden)]
            #[allow(clippy::all, non_upper_case_globals)]
            const #konst: #p::RobotDef = #def;
            #[doc(hidden)]
            fn #joints_fn(&self) -> #p::Option<#p::Vec<f64>> {
                #p::JointValues::joint_values(Self::#position(self))
            }
            #[doc(hidden)]
            fn #tool_point(&self) -> #p::Option<[f64; 3]> {
                static MODEL: #p::OnceLock<#p::Option<#p::Robot>> = #p::OnceLock::new();
                #p::robot_tool_point(&MODEL, &Self::#konst, self.#joints_fn(), #unit)
            }
        });
        let resource = &t.resource;
        // What a struct of joint positions is checked against at compile time.
        items.extend(quote! {
            #[doc(hidden)]
            #[allow(clippy::all)]
            impl #p::RobotOf<#i> for #self_ty {
                const ROBOT: #p::RobotDef = <#self_ty>::#konst;
                const RESOURCE: &'static str = #resource;
            }
        });
        robots.push(super::fields::RobotIndex {
            resource: resource.clone(),
            index: i,
            joints: robot.joints.iter().filter(|j| j.mimic.is_none()).count(),
        });
        resources.push(quote! {
            #p::RobotResource {
                resource: #resource,
                robot: &Self::#konst,
                joints: Self::#joints_fn,
            }
        });
        if let Some(ty) = &attr.joints {
            items.extend(joint_type(ty, &robot, &quote!(<#self_ty>::#konst)));
        }
    }
    let robots_fn = (!resources.is_empty()).then(|| {
        quote! {
            fn robots() -> #p::Vec<#p::RobotResource<Self>> {
                #p::Vec::from([#(#resources),*])
            }
        }
    });
    Generated {
        methods,
        items,
        robots_fn,
        robots,
        errors,
    }
}

/// `x` as an `f64` literal expression.
fn lit(x: f64) -> TokenStream {
    let l = proc_macro2::Literal::f64_unsuffixed(x.abs());
    if x < 0.0 { quote!(-#l) } else { quote!(#l) }
}

/// The joint-position type `ty`: one `f64` field per moving joint, named as in the URDF, with
/// its unit, its enforced range and a doc saying where they came from; its `HOME` and its tool
/// pose (forward kinematics of the robot `def`, a path to its `RobotDef` constant).
fn joint_type(ty: &Ident, robot: &Robot, def: &TokenStream) -> TokenStream {
    let p = crate::runtime::private();
    let k = crate::runtime::krate();
    let serde_crate = format!("{}::__private::serde", k).replace(' ', "");
    let krate = k.to_string().replace(' ', "");
    let parameters: Vec<&super::model::Joint> =
        robot.joints.iter().filter(|j| j.mimic.is_none()).collect();
    let n = parameters.len();
    let fields = parameters.iter().map(|j| {
        let name = Ident::new(&j.name, Span::call_site());
        let l = &j.limits;
        let unit = if j.kind == super::model::Kind::Prismatic {
            "m"
        } else {
            "rad"
        };
        let doc = format!(
            " `{}` ({}): {}..={} {unit}, at most {} {unit}/s (from the robot's description).",
            j.name,
            match j.kind {
                super::model::Kind::Revolute => "revolute",
                super::model::Kind::Continuous => "continuous",
                super::model::Kind::Prismatic => "prismatic",
            },
            l.lower,
            l.upper,
            l.velocity
        );
        let (lo, hi) = (lit(l.lower), lit(l.upper));
        quote! {
            #[doc = #doc]
            #[param(unit = #unit, range = #lo..=#hi)]
            pub #name: f64
        }
    });
    let names: Vec<Ident> = parameters
        .iter()
        .map(|j| Ident::new(&j.name, Span::call_site()))
        .collect();
    let indices = 0..n;
    let home = robot.home.values.iter().map(|v| lit(*v));
    let home_names = names.clone();
    let home_doc = format!(" The home configuration ({}).", robot.home.from);
    let doc = format!(
        " The joint positions of robot `{}` (read from `{}` when this crate compiled): one field \
         per moving joint, in order from the base.",
        robot.name, robot.urdf
    );
    quote! {
        #[doc = #doc]
        #[derive(
            ::core::fmt::Debug,
            ::core::clone::Clone,
            ::core::marker::Copy,
            ::core::cmp::PartialEq,
            #p::serde::Serialize,
            #p::serde::Deserialize,
            #k::ToolSchema
        )]
        #[serde(crate = #serde_crate)]
        #[toolwright(crate = #krate)]
        pub struct #ty {
            #(#fields),*
        }

        #[allow(clippy::all)]
        impl #ty {
            #[doc = #home_doc]
            pub const HOME: #ty = #ty { #(#home_names: #home),* };

            /// The tool point (metres) and the tip link's orientation (a unit quaternion
            /// `[x, y, z, w]`) at these joint positions, in the robot's base frame.
            pub fn tool_pose(&self) -> ([f64; 3], [f64; 4]) {
                static MODEL: #p::OnceLock<#p::Option<#p::Robot>> = #p::OnceLock::new();
                #p::robot_tool_pose(&MODEL, &#def, &self.values())
                    .unwrap_or(([f64::NAN; 3], [f64::NAN; 4]))
            }

            /// The values in the robot's joint order.
            pub fn values(&self) -> [f64; #n] {
                [#(self.#names),*]
            }

            /// The joint positions from values in the robot's joint order (`None` for another
            /// number of values).
            pub fn from_values(values: &[f64]) -> ::core::option::Option<Self> {
                if values.len() != #n {
                    return ::core::option::Option::None;
                }
                ::core::option::Option::Some(#ty { #(#names: values[#indices]),* })
            }
        }

        impl #p::JointValues for #ty {
            fn joint_values(self) -> #p::Option<#p::Vec<f64>> {
                #p::Some(self.values().to_vec())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use quote::quote;

    use super::*;

    #[test]
    fn robot_keys_are_taken_out_and_position_is_pointed_at_the_tool_point() {
        let (rest, taken) = take(quote!(
            timeout = "30s",
            resource(
                name = "arm",
                position = joints_now,
                robot(urdf = "r.urdf", tip = "t", packages("a-b" = "x")),
                envelope(frame = "base", unit = "mm", allow(box(min = (0, 0, 0), max = (1, 1, 1))))
            ),
            resource(name = "gripper")
        ));
        assert_eq!(taken.len(), 1);
        assert_eq!(taken[0].resource, "arm");
        assert_eq!(taken[0].unit.as_deref(), Some("mm"));
        assert_eq!(
            taken[0].position.as_ref().unwrap().to_string(),
            "joints_now"
        );
        assert_eq!(
            taken[0].tokens.to_string(),
            "urdf = \"r.urdf\" , tip = \"t\" , packages (\"a-b\" = \"x\")"
        );
        let rest = rest.to_string();
        assert!(!rest.contains("robot ("), "{rest}");
        assert!(
            rest.contains("position = __tw_robot_0_tool_point"),
            "{rest}"
        );
        assert!(rest.contains("resource (name = \"gripper\")"), "{rest}");
        // The rest parses as the attribute darling reads.
        darling::ast::NestedMeta::parse_meta_list(rest.parse().unwrap()).unwrap();
    }
}
