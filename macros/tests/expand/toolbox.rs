impl RobotArm {
    /// Halts any motion where it is.
    fn halt(&self) -> String {
        self.stop_now()
    }
    /// Read the arm's state.
    fn get_arm_state(&self) -> ArmState {
        self.state()
    }
    /// Close the gripper with a force.
    async fn grip(&self, force: f64) -> Result<String, ToolError> {
        self.close(force).await
    }
}
#[allow(unused_qualifications, clippy::all)]
impl RobotArm {
    #[doc(hidden)]
    #[allow(non_snake_case, unused_qualifications, clippy::all)]
    fn __tw_def_get_arm_state() -> ::toolwright::__private::ToolDef<Self> {
        {
            #[allow(non_camel_case_types)]
            type __TwT0 = ArmState;
            ::toolwright::__private::ToolDef::<Self> {
                meta: ::toolwright::__private::ToolMeta {
                    name: "get_arm_state",
                    title: ::toolwright::__private::None,
                    description: "Read the arm's state.",
                    read_only: ::toolwright::__private::Some(true),
                    destructive: ::toolwright::__private::None,
                    idempotent: ::toolwright::__private::None,
                    open_world: ::toolwright::__private::None,
                    timeout_ms: ::toolwright::__private::None,
                    resources: &[],
                    retry: 0u32,
                    max_output_bytes: ::toolwright::__private::None,
                    group: ::toolwright::__private::None,
                    grace_ms: ::toolwright::__private::None,
                    scopes: &[],
                    rate_limit: ::core::option::Option::None,
                    deep_nesting: false,
                    results: ::toolwright::__private::ResultOptions {
                        projection: false,
                        summary: false,
                        over_budget: ::toolwright::__private::OverBudget::Cut,
                        projection_from_toolbox: false,
                    },
                    ..::core::default::Default::default()
                },
                params: ::toolwright::__private::Params::Fields(
                    ::toolwright::__private::Vec::from([]),
                ),
                output: {
                    #[allow(unused_imports)]
                    use ::toolwright::__private::prelude::outputs::*;
                    let __tw_probe = &::toolwright::__private::Probe::<__TwT0>::new();
                    <_ as ::toolwright::__private::OutputType>::check(
                        __tw_probe.output_marker(),
                    );
                    <::toolwright::__private::ToolError as ::toolwright::__private::AcceptsError<
                        _,
                    >>::check(__tw_probe.error_marker());
                    __tw_probe.output_info()
                },
                handler: |
                    __tw_state: ::toolwright::__private::Arc<Self>,
                    #[allow(unused_mut)]
                    mut __tw_args: ::toolwright::__private::Args|
                {
                    let _ = &__tw_state;
                    ::toolwright::__private::run_async(async move {
                        {
                            let _ = __tw_args;
                            let __tw_ret: __TwT0 = Self::get_arm_state(&*__tw_state);
                            {
                                #[allow(unused_imports)]
                                use ::toolwright::__private::prelude::outputs::*;
                                (&::toolwright::__private::Probe::<__TwT0>::new())
                                    .output_value(__tw_ret)
                            }
                        }
                    })
                },
                check: ::toolwright::__private::None,
            }
        }
    }
    #[doc(hidden)]
    #[allow(non_snake_case, unused_qualifications, clippy::all)]
    fn __tw_def_grip() -> ::toolwright::__private::ToolDef<Self> {
        {
            #[allow(non_camel_case_types)]
            type __TwT0 = f64;
            #[allow(non_camel_case_types)]
            type __TwT1 = Result<String, ToolError>;
            ::toolwright::__private::ToolDef::<Self> {
                meta: ::toolwright::__private::ToolMeta {
                    name: "grip",
                    title: ::toolwright::__private::None,
                    description: "Close the gripper with a force.",
                    read_only: ::toolwright::__private::None,
                    destructive: ::toolwright::__private::None,
                    idempotent: ::toolwright::__private::None,
                    open_world: ::toolwright::__private::None,
                    timeout_ms: ::toolwright::__private::None,
                    resources: &["arm"],
                    retry: 0u32,
                    max_output_bytes: ::toolwright::__private::None,
                    group: ::toolwright::__private::None,
                    grace_ms: ::toolwright::__private::None,
                    scopes: &["arm:move"],
                    rate_limit: ::core::option::Option::None,
                    confirm_not_needed: ::toolwright::__private::Some(
                        "a simulated arm moves nothing",
                    ),
                    deep_nesting: false,
                    results: ::toolwright::__private::ResultOptions {
                        projection: false,
                        summary: false,
                        over_budget: ::toolwright::__private::OverBudget::Cut,
                        projection_from_toolbox: false,
                    },
                    ..::core::default::Default::default()
                },
                params: ::toolwright::__private::Params::Fields(
                    ::toolwright::__private::Vec::from([
                        ::toolwright::__private::Field {
                            spec: ::toolwright::__private::FieldSpec {
                                name: "force",
                                description: ::toolwright::__private::Some("Grip force."),
                                unit: ::toolwright::__private::Some(::toolwright::__private::Unit {
                                    symbol: "N",
                                    words: "newtons",
                                }),
                                minimum: ::toolwright::__private::Some(::toolwright::__private::Bound {
                                    value: ::toolwright::__private::Num::Float(5f64),
                                    exclusive: false,
                                }),
                                maximum: ::toolwright::__private::Some(::toolwright::__private::Bound {
                                    value: ::toolwright::__private::Num::Float(30f64),
                                    exclusive: false,
                                }),
                                min_length: ::toolwright::__private::None,
                                max_length: ::toolwright::__private::None,
                                min_items: ::toolwright::__private::None,
                                max_items: ::toolwright::__private::None,
                                pattern: ::toolwright::__private::None,
                                default: ::toolwright::__private::Some(|| {
                                    #[allow(unused_imports)]
                                    use ::toolwright::__private::prelude::values::*;
                                    let __tw_probe = &::toolwright::__private::Probe::<
                                        __TwT0,
                                    >::new();
                                    <_ as ::toolwright::__private::DeclaredValue>::check(
                                        __tw_probe.schema_marker(),
                                    );
                                    __tw_probe.value_json(15.0)
                                }),
                                examples: ::toolwright::__private::None,
                                serde_default: false,
                                skip_serializing_if: false,
                                ..::core::default::Default::default()
                            },
                            info: {
                                #[allow(unused_imports)]
                                use ::toolwright::__private::prelude::params::*;
                                let __tw_probe = &::toolwright::__private::Probe::<
                                    __TwT0,
                                >::new();
                                <_ as ::toolwright::__private::ParamType>::check(
                                    __tw_probe.schema_marker(),
                                );
                                __tw_probe.type_info()
                            },
                            flatten: false,
                        },
                    ]),
                ),
                output: {
                    #[allow(unused_imports)]
                    use ::toolwright::__private::prelude::outputs::*;
                    let __tw_probe = &::toolwright::__private::Probe::<__TwT1>::new();
                    <_ as ::toolwright::__private::OutputType>::check(
                        __tw_probe.output_marker(),
                    );
                    <::toolwright::__private::ToolError as ::toolwright::__private::AcceptsError<
                        _,
                    >>::check(__tw_probe.error_marker());
                    __tw_probe.output_info()
                },
                handler: |
                    __tw_state: ::toolwright::__private::Arc<Self>,
                    #[allow(unused_mut)]
                    mut __tw_args: ::toolwright::__private::Args|
                {
                    let _ = &__tw_state;
                    ::toolwright::__private::run_async(async move {
                        match (
                            {
                                #[allow(unused_imports)]
                                use ::toolwright::__private::prelude::params::*;
                                (&::toolwright::__private::Probe::<__TwT0>::new())
                                    .take_arg(&mut __tw_args, "force")
                            },
                        ) {
                            (::toolwright::__private::Ok(__tw_arg_0),) => {
                                let __tw_ret: __TwT1 = Self::grip(&*__tw_state, __tw_arg_0)
                                    .await;
                                {
                                    #[allow(unused_imports)]
                                    use ::toolwright::__private::prelude::outputs::*;
                                    (&::toolwright::__private::Probe::<__TwT1>::new())
                                        .output_value(__tw_ret)
                                }
                            }
                            _ => ::toolwright::__private::Err(__tw_args.into_error()),
                        }
                    })
                },
                check: ::toolwright::__private::None,
            }
        }
    }
}
#[allow(unused_qualifications, clippy::all)]
impl ::toolwright::ToolSet for RobotArm {
    fn tools() -> ::toolwright::__private::Vec<::toolwright::__private::ToolDef<Self>> {
        ::toolwright::__private::Vec::from([
            Self::__tw_def_get_arm_state(),
            Self::__tw_def_grip(),
        ])
    }
    fn server_info() -> (&'static str, &'static str) {
        (::core::env!("CARGO_PKG_NAME"), ::core::env!("CARGO_PKG_VERSION"))
    }
    fn defaults() -> ::toolwright::ToolboxDefaults {
        ::toolwright::ToolboxDefaults {
            timeout_ms: ::core::option::Option::Some(30000u64),
            max_concurrency: ::core::option::Option::None,
            grace_ms: ::core::option::Option::None,
            client_rate_limit: ::core::option::Option::None,
            ..::core::default::Default::default()
        }
    }
    fn resources() -> ::toolwright::__private::Vec<
        ::toolwright::__private::ResourceDef<Self>,
    > {
        ::toolwright::__private::Vec::from([
            ::toolwright::__private::ResourceDef {
                name: "arm",
                max_waiting: ::toolwright::__private::Some(8usize),
                safe_stop: {
                    let f: ::toolwright::__private::SafeStop<Self> = |
                        __tw_state: ::toolwright::__private::Arc<Self>|
                    ::toolwright::__private::safe_stop_blocking(move || {
                        <_ as ::toolwright::__private::SafeStopOutput>::report(
                            Self::halt(&*__tw_state),
                        )
                    });
                    ::toolwright::__private::Some(f)
                },
                position: ::toolwright::__private::None,
                envelope: ::toolwright::__private::None,
            },
        ])
    }
}
#[allow(
    non_upper_case_globals,
    non_camel_case_types,
    unused_qualifications,
    clippy::all
)]
const _: () = {
    #[allow(unused_imports)]
    use ::toolwright::__private::ProbeFallback as _;
    type __TwT0 = f64;
    const _: () = <::toolwright::__private::Id<
        __TwT0,
    > as ::toolwright::__private::UnitTarget>::CHECK;
    const _: () = if !::toolwright::__private::unit_fits(
        <::toolwright::__private::Probe<::toolwright::__private::Id<__TwT0>>>::QUANTITY,
        "N",
    ) {
        const __TW_MSG: ::toolwright::__private::Msg = ::toolwright::__private::unit_mismatch(
            <::toolwright::__private::Probe<
                ::toolwright::__private::Id<__TwT0>,
            >>::QUANTITY,
            "N",
        );
        ::core::panic!("{}", __TW_MSG.as_str())
    };
    const _: () = <::toolwright::__private::Id<
        __TwT0,
    > as ::toolwright::__private::RangeTarget>::CHECK;
    const _: () = if <::toolwright::__private::Probe<
        ::toolwright::__private::Id<__TwT0>,
    >>::WIDTH
        .excludes(::toolwright::__private::Num::Float(5f64))
    {
        const __TW_MSG: ::toolwright::__private::Msg = <::toolwright::__private::Probe<
            ::toolwright::__private::Id<__TwT0>,
        >>::WIDTH
            .message(
                "the lower bound `5.0` of this `range` does not fit",
                "; the parameter can never reach it: change the bound, or widen the type",
            );
        ::core::panic!("{}", __TW_MSG.as_str())
    };
    const _: () = if <::toolwright::__private::Probe<
        ::toolwright::__private::Id<__TwT0>,
    >>::WIDTH
        .excludes(::toolwright::__private::Num::Float(30f64))
    {
        const __TW_MSG: ::toolwright::__private::Msg = <::toolwright::__private::Probe<
            ::toolwright::__private::Id<__TwT0>,
        >>::WIDTH
            .message(
                "the upper bound `30.0` of this `range` does not fit",
                "; the parameter can never reach it: change the bound, or widen the type",
            );
        ::core::panic!("{}", __TW_MSG.as_str())
    };
    const _: () = {
        const __TW_DEPTH: usize = <::toolwright::__private::Probe<
            ::toolwright::__private::Id<__TwT0>,
        >>::DEPTH;
        if __TW_DEPTH >= ::toolwright::__private::RECURSIVE {
            ::core::panic!(
                "the input of tool `grip` nests `force: f64` without end: the type contains itself, and toolwright inlines every schema (clients do not follow `$ref`); bound the nesting with a separate type per level"
            )
        } else if __TW_DEPTH > 3usize {
            const __TW_MSG: ::toolwright::__private::Msg = ::toolwright::__private::Msg::new()
                .str("the input of tool `grip` nests `force: f64` ")
                .int(__TW_DEPTH as i128)
                .str(
                    " levels deep (each struct, list or map is a level); past 3, models build arguments less reliably: flatten the structure or split the tool; to keep it, add `#[tool(allow(deep_nesting))]`",
                );
            ::core::panic!("{}", __TW_MSG.as_str())
        }
    };
};
