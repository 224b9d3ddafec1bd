//! The reduced robot as constant data: a `RobotDef` expression (a block whose items
//! `include_bytes!` every file read, so that editing the URDF, the limits file, the SRDF or a
//! mesh rebuilds the crate), and the entry point of `__robot_def!`.

use proc_macro2::{Literal, Span, TokenStream};
use quote::quote;

use super::capsule::Capsule;
use super::math::{Pose, V3};
use super::model::{Kind, Robot};

/// `x` as an `f64` expression.
fn f(x: f64) -> TokenStream {
    if x < 0.0 || (x == 0.0 && x.is_sign_negative()) {
        let lit = Literal::f64_suffixed(-x);
        quote!(-#lit)
    } else {
        let lit = Literal::f64_suffixed(x);
        quote!(#lit)
    }
}

fn v3(p: V3) -> TokenStream {
    let (x, y, z) = (f(p[0]), f(p[1]), f(p[2]));
    quote!([#x, #y, #z])
}

fn quat(pose: &Pose) -> TokenStream {
    let q = pose.rot.quaternion();
    let (x, y, z, w) = (f(q[0]), f(q[1]), f(q[2]), f(q[3]));
    quote!([#x, #y, #z, #w])
}

fn opt_f(x: Option<f64>, p: &TokenStream) -> TokenStream {
    match x {
        Some(x) => {
            let x = f(x);
            quote!(#p::Some(#x))
        }
        None => quote!(#p::None),
    }
}

fn opt_s(s: &Option<String>, p: &TokenStream) -> TokenStream {
    match s {
        Some(s) => quote!(#p::Some(#s)),
        None => quote!(#p::None),
    }
}

fn capsule(c: &Capsule, p: &TokenStream) -> TokenStream {
    let (a, b, r) = (v3(c.a), v3(c.b), f(c.radius));
    quote!(#p::CapsuleDef { a: #a, b: #b, radius: #r })
}

/// The `RobotDef` expression of `robot`.
pub fn robot_def(robot: &Robot) -> TokenStream {
    let p = crate::runtime::private();
    let includes = robot.files.iter().map(|path| {
        let path = path.display().to_string();
        quote!(
            const _: &[u8] = ::core::include_bytes!(#path);
        )
    });
    let joints = robot.joints.iter().map(|j| {
        let l = &j.limits;
        let kind = match j.kind {
            Kind::Revolute => quote!(#p::JointKind::Revolute),
            Kind::Continuous => quote!(#p::JointKind::Continuous),
            Kind::Prismatic => quote!(#p::JointKind::Prismatic),
        };
        let (name, parent, child) = (&j.name, &j.parent, &j.child);
        let (xyz, q, axis) = (v3(j.origin.xyz), quat(&j.origin), v3(j.axis));
        let mimic = match j.mimic {
            Some((leader, m, o)) => {
                let leader = u16::try_from(leader).unwrap_or(u16::MAX);
                let (m, o) = (f(m), f(o));
                quote!(#p::Some(#p::MimicDef { leader: #leader, multiplier: #m, offset: #o }))
            }
            None => quote!(#p::None),
        };
        let (lower, upper, wraps, velocity) = (f(l.lower), f(l.upper), l.wraps, f(l.velocity));
        let acceleration = opt_f(l.acceleration, &p);
        let deceleration = opt_f(l.deceleration, &p);
        let jerk = opt_f(l.jerk, &p);
        let effort = opt_f(l.effort, &p);
        let (range_from, velocity_from) = (&l.range_from, &l.velocity_from);
        let acceleration_from = opt_s(&l.acceleration_from, &p);
        let deceleration_from = opt_s(&l.deceleration_from, &p);
        quote! {
            #p::JointDef {
                name: #name,
                kind: #kind,
                parent: #parent,
                child: #child,
                xyz: #xyz,
                quat: #q,
                axis: #axis,
                mimic: #mimic,
                limits: #p::LimitsDef {
                    lower: #lower,
                    upper: #upper,
                    wraps: #wraps,
                    velocity: #velocity,
                    acceleration: #acceleration,
                    deceleration: #deceleration,
                    jerk: #jerk,
                    effort: #effort,
                    range_from: #range_from,
                    velocity_from: #velocity_from,
                    acceleration_from: #acceleration_from,
                    deceleration_from: #deceleration_from,
                },
            }
        }
    });
    let links = robot.links.iter().map(|l| {
        let name = &l.name;
        let parent = match l.parent {
            Some(i) => {
                let i = u16::try_from(i).unwrap_or(u16::MAX);
                quote!(#p::Some(#i))
            }
            None => quote!(#p::None),
        };
        let frame = u16::try_from(l.frame).unwrap_or(u16::MAX);
        let (xyz, q) = (v3(l.placement.xyz), quat(&l.placement));
        let capsules = l.capsules.iter().map(|c| capsule(c, &p));
        let swept = opt_s(&l.swept_by, &p);
        quote! {
            #p::LinkDef {
                name: #name,
                parent: #parent,
                frame: #frame,
                xyz: #xyz,
                quat: #q,
                capsules: &[#(#capsules),*],
                swept_by: #swept,
            }
        }
    });
    let disabled = robot.disabled.iter().map(|&(a, b)| {
        let (a, b) = (
            u16::try_from(a).unwrap_or(u16::MAX),
            u16::try_from(b).unwrap_or(u16::MAX),
        );
        quote!([#a, #b])
    });
    let (name, urdf, sha, base) = (&robot.name, &robot.urdf, &robot.sha256, &robot.base);
    let tip_link = &robot.tip.link;
    let (offset, point) = (v3(robot.tip.offset), v3(robot.tip.point));
    let tip_frame = u16::try_from(robot.tip.frame).unwrap_or(u16::MAX);
    let home = robot.home.values.iter().map(|x| f(*x));
    let home_from = &robot.home.from;
    quote! {
        {
            #(#includes)*
            // Numbers read from the files, written out (some near π/2: not approximations).
            #[allow(clippy::all, clippy::approx_constant)]
            const __TW_ROBOT: #p::RobotDef = #p::RobotDef {
                name: #name,
                urdf: #urdf,
                sha256: #sha,
                base: #base,
                joints: &[#(#joints),*],
                links: &[#(#links),*],
                tip: #p::TipDef {
                    link: #tip_link,
                    offset: #offset,
                    frame: #tip_frame,
                    point: #point,
                },
                disabled: &[#(#disabled),*],
                home: &[#(#home),*],
                home_from: #home_from,
            };
            __TW_ROBOT
        }
    }
}

/// The crate being compiled's manifest directory (paths in a declaration are relative to it).
pub fn manifest_dir() -> std::path::PathBuf {
    std::env::var_os("CARGO_MANIFEST_DIR")
        .map(std::path::PathBuf::from)
        .unwrap_or_default()
}

/// `__robot_def!(urdf = "..", tip = "..", ..)`: the `RobotDef` of the declaration, or its
/// problems as compile errors on the tokens that caused them (the expression is then an
/// unread placeholder, so what uses it still type-checks).
pub fn expand(input: TokenStream) -> TokenStream {
    let span = Span::call_site();
    let mut errors = Vec::new();
    let attr = super::attr::parse(input, span, &mut errors);
    let def = attr.and_then(|attr| match super::read(&attr.decl, &manifest_dir()) {
        Ok(robot) => Some(robot_def(&robot)),
        Err(problems) => {
            for problem in problems.0 {
                errors.push(syn::Error::new(attr.span_of(problem.site), problem.message));
            }
            None
        }
    });
    match def {
        Some(def) if errors.is_empty() => def,
        _ => {
            let p = crate::runtime::private();
            let errors = errors.iter().map(syn::Error::to_compile_error);
            quote!({ #(#errors)* #p::RobotDef::UNREAD })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn negative_numbers_are_a_minus_and_a_literal() {
        assert_eq!(f(-2.5).to_string(), "- 2.5f64");
        assert_eq!(f(0.0).to_string(), "0f64");
    }

    #[test]
    fn the_panda_s_def_names_every_file_it_read() {
        let mut decl = super::super::decl::Decl::new(
            "robots/example-robot-data/robots/panda_description/urdf/panda.urdf",
            "panda_hand_tcp",
        );
        decl.packages = vec![(
            "example-robot-data".to_owned(),
            "robots/example-robot-data".to_owned(),
        )];
        let base = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples");
        let robot = super::super::read(&decl, &base).unwrap();
        let text = robot_def(&robot).to_string();
        assert_eq!(text.matches("include_bytes !").count(), 10, "{text}");
        assert!(text.contains("name : \"panda_joint4\""));
        // It parses as an expression.
        syn::parse2::<syn::Expr>(robot_def(&robot)).unwrap();
    }
}
