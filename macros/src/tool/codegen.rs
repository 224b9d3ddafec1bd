//! A tool's generated definition: the `ToolDef` expression built from its model, calling only
//! `__private` (argument takes, the call, the output, the run mode).

use proc_macro2::TokenStream;
use quote::{ToTokens, format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{Ident, Type};

use crate::doc::Doc;
use crate::policy;
use crate::property;

use super::model::{Receiver, ToolModel};

impl ToolModel {
    /// A `ToolDef<#state>` expression; `callee` is the path that calls the fn; `self_ty` is the
    /// type of a `#[toolbox]` impl (it replaces `Self` in the types); `check` is its
    /// `check = ..` (made by the `#[toolbox]`, which sees the method).
    pub fn def_expr(
        &self,
        state: &TokenStream,
        callee: &TokenStream,
        self_ty: Option<&Type>,
        check: Option<&super::CheckDef>,
    ) -> TokenStream {
        let p = crate::runtime::private();
        // Each type is named once, by an alias (`type __TwT0 = ..;`), and the code below uses the
        // alias spanned at the type: a type that does not resolve is one error, not one per use.
        let mut aliases = Vec::new();
        let mut alias = |ty: &Type| -> Type {
            let ident = format_ident!("__TwT{}", aliases.len());
            let tokens = match self_ty {
                Some(s) => {
                    crate::typecheck::replace_self(ty.to_token_stream(), &s.to_token_stream())
                }
                None => ty.to_token_stream(),
            };
            aliases.push(quote!(#[allow(non_camel_case_types)] type #ident = #tokens;));
            let used = Ident::new(&ident.to_string(), ty.span());
            syn::parse_quote!(#used)
        };
        let tys: Vec<Type> = self.params.iter().map(|p| alias(&p.ty)).collect();
        let ret = &alias(&self.ret);
        let name = &self.name;
        let title = match &self.title {
            Some(t) => quote!(#p::Some(#t)),
            None => quote!(#p::None),
        };
        let description = self
            .description
            .as_ref()
            .map_or_else(|| quote!(""), Doc::to_tokens);
        let hints = self.hints.iter().map(|(k, v)| {
            let k = format_ident!("{k}");
            match v {
                Some(b) => quote!(#k: #p::Some(#b)),
                None => quote!(#k: #p::None),
            }
        });
        let opt = |v: Option<TokenStream>| match v {
            Some(v) => quote!(#p::Some(#v)),
            None => quote!(#p::None),
        };
        let deep_nesting = self.deep_nesting;
        let timeout_ms = opt(self.timeout_ms.map(|t| quote!(#t)));
        let resources = policy::resources_tokens(&self.resources);
        let retry = self.retry;
        let max_output_bytes = opt(self.max_output_bytes.map(|m| quote!(#m)));
        let group = opt(self.group.as_ref().map(|g| quote!(#g)));
        let grace_ms = opt(self.grace_ms.map(|g| quote!(#g)));
        let scopes = &self.scopes;
        let rate_limit = policy::rate_tokens(&self.rate_limit);
        // Emitted only when declared (the rest is `Default`), like every rarely used key.
        let confirm = self
            .confirm
            .as_ref()
            .map(|c| quote!(confirm: #p::Some(#c),));
        let confirm_not_needed = self
            .confirm_not_needed
            .as_ref()
            .map(|c| quote!(confirm_not_needed: #p::Some(#c),));
        let stop_for = (!self.stop_for.is_empty()).then(|| {
            let names = self.stop_for.iter().map(|(n, _)| n);
            quote!(stop_for: &[#(#names),*],)
        });
        let task = match self.task {
            Some("required") => Some(quote!(task: #p::TaskSupport::Required,)),
            Some(_) => Some(quote!(task: #p::TaskSupport::Optional,)),
            None => None,
        };
        let target = self.target.as_ref().map(|t| match t {
            super::model::TargetModel::Params([x, y, z]) => {
                quote!(target: #p::Some(#p::TargetDecl::Params([#x, #y, #z])),)
            }
            super::model::TargetModel::Point(name) => {
                quote!(target: #p::Some(#p::TargetDecl::Point(#name)),)
            }
            super::model::TargetModel::Path(name) => {
                quote!(target: #p::Some(#p::TargetDecl::Path(#name)),)
            }
        });
        // What the check refuses, published with the tool (only when declared).
        let check_doc = check.map(|c| {
            let doc = c.doc.to_tokens();
            quote!(check: #p::Some(#doc),)
        });
        let check = match check.map(|c| &c.call) {
            Some(check) => quote!(#p::Some(#check)),
            None => quote!(#p::None),
        };
        let (projection, summary) = (self.projection, self.summary);
        let projection_from_toolbox = self.projection_from_toolbox;
        let over_budget = if self.envelope {
            quote!(#p::OverBudget::Envelope)
        } else {
            quote!(#p::OverBudget::Cut)
        };
        let params = if self.flatten {
            let info = property::type_info_tokens(&tys[0]);
            quote!(#p::Params::Flatten(#info))
        } else {
            let fields = self.params.iter().zip(&tys).map(|(param, ty)| {
                let spec = param.decl.spec_tokens(&param.json_name, ty, false, false);
                let info = property::type_info_tokens(ty);
                quote!(#p::Field { spec: #spec, info: #info, flatten: false })
            });
            quote!(#p::Params::Fields(#p::Vec::from([#(#fields),*])))
        };
        // The output's roles are required first, each by its own bound at the return type
        // (`OutputType`, and `ToolError: AcceptsError<E>` for a `Result`): rustc reports those,
        // in words, and not again the same bounds of `output_info` and `output_value`.
        let output = {
            let p = crate::runtime::private_at(ret.span());
            quote_spanned! {ret.span()=>
                {
                    #[allow(unused_imports)]
                    use #p::prelude::outputs::*;
                    let __tw_probe = &#p::Probe::<#ret>::new();
                    <_ as #p::OutputType>::check(__tw_probe.output_marker());
                    <#p::ToolError as #p::AcceptsError<_>>::check(__tw_probe.error_marker());
                    __tw_probe.output_info()
                }
            }
        };
        // Generated names, so a parameter named like the fn does not shadow it.
        let idents: Vec<Ident> = (0..self.params.len())
            .map(|i| format_ident!("__tw_arg_{i}"))
            .collect();
        let receiver = match self.receiver {
            Receiver::Ref => quote!(&*__tw_state,),
            Receiver::None => quote!(),
        };
        let await_ = if self.is_async {
            quote!(.await)
        } else {
            quote!()
        };
        let output_value = {
            let p = crate::runtime::private_at(ret.span());
            quote_spanned! {ret.span()=>
                {
                    #[allow(unused_imports)]
                    use #p::prelude::outputs::*;
                    (&#p::Probe::<#ret>::new()).output_value(__tw_ret)
                }
            }
        };
        let call = quote! {
            let __tw_ret: #ret = #callee(#receiver #(#idents),*) #await_;
            #output_value
        };
        let body = if self.params.is_empty() {
            quote!({ let _ = __tw_args; #call })
        } else {
            let takes = self.params.iter().zip(&tys).map(|(param, ty)| {
                if self.flatten {
                    let p = crate::runtime::private_at(ty.span());
                    quote_spanned!(ty.span()=> #p::take_flattened::<#ty>(&mut __tw_args))
                } else {
                    let json = &param.json_name;
                    let p = crate::runtime::private_at(ty.span());
                    quote_spanned! {ty.span()=>
                        {
                            #[allow(unused_imports)]
                            use #p::prelude::params::*;
                            (&#p::Probe::<#ty>::new()).take_arg(&mut __tw_args, #json)
                        }
                    }
                }
            });
            quote! {
                match (#(#takes,)*) {
                    (#(#p::Ok(#idents),)*) => { #call }
                    _ => #p::Err(__tw_args.into_error()),
                }
            }
        };
        let run = if self.blocking {
            quote!(#p::run_blocking(move || { #body }))
        } else {
            quote!(#p::run_async(async move { #body }))
        };
        quote! {
            {
                #(#aliases)*
                #p::ToolDef::<#state> {
                    meta: #p::ToolMeta {
                        name: #name,
                        title: #title,
                        description: #description,
                        #(#hints,)*
                        timeout_ms: #timeout_ms,
                        resources: #resources,
                        retry: #retry,
                        max_output_bytes: #max_output_bytes,
                        group: #group,
                        grace_ms: #grace_ms,
                        scopes: &[#(#scopes),*],
                        rate_limit: #rate_limit,
                        #confirm
                        #confirm_not_needed
                        #check_doc
                        #stop_for
                        #task
                        #target
                        deep_nesting: #deep_nesting,
                        results: #p::ResultOptions {
                            projection: #projection,
                            summary: #summary,
                            over_budget: #over_budget,
                            projection_from_toolbox: #projection_from_toolbox,
                        },
                        ..::core::default::Default::default()
                    },
                    params: #params,
                    output: #output,
                    handler: |__tw_state: #p::Arc<#state>, #[allow(unused_mut)] mut __tw_args: #p::Args| {
                        let _ = &__tw_state;
                        #run
                    },
                    check: #check,
                }
            }
        }
    }
}
