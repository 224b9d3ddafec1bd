#[allow(unused_qualifications)]
const _: () = {
    #[automatically_derived]
    #[allow(clippy::needless_update)]
    impl ::toolwright::__private::schemars::JsonSchema for Command {
        fn schema_name() -> ::toolwright::__private::Cow<'static, str> {
            ::toolwright::__private::Cow::Borrowed("Command")
        }
        fn schema_id() -> ::toolwright::__private::Cow<'static, str> {
            ::toolwright::__private::Cow::Borrowed(
                ::core::concat!(::core::module_path!(), "::", "Command"),
            )
        }
        fn json_schema(
            generator: &mut ::toolwright::__private::schemars::SchemaGenerator,
        ) -> ::toolwright::__private::schemars::Schema {
            let __tw_serialize = generator.contract().is_serialize();
            {
                let mut __tw_variants = ::toolwright::__private::Vec::new();
                __tw_variants
                    .push(::toolwright::__private::Variant {
                        name: "move_to",
                        description: ::toolwright::__private::Some("Move to a target."),
                        shape: ::toolwright::__private::VariantShape::Struct({
                            let mut __tw_fields = ::toolwright::__private::Vec::new();
                            {
                                #[allow(unused_mut)]
                                let mut __tw_field = ::toolwright::__private::Field {
                                    spec: ::toolwright::__private::FieldSpec {
                                        name: "target_speed",
                                        description: ::toolwright::__private::Some(
                                            "Fraction of the maximum speed.",
                                        ),
                                        unit: ::toolwright::__private::None,
                                        minimum: ::toolwright::__private::Some(::toolwright::__private::Bound {
                                            value: ::toolwright::__private::Num::Float(0.1f64),
                                            exclusive: false,
                                        }),
                                        maximum: ::toolwright::__private::Some(::toolwright::__private::Bound {
                                            value: ::toolwright::__private::Num::Float(1f64),
                                            exclusive: false,
                                        }),
                                        min_length: ::toolwright::__private::None,
                                        max_length: ::toolwright::__private::None,
                                        min_items: ::toolwright::__private::None,
                                        max_items: ::toolwright::__private::None,
                                        pattern: ::toolwright::__private::None,
                                        default: ::toolwright::__private::None,
                                        examples: ::toolwright::__private::None,
                                        serde_default: false,
                                        skip_serializing_if: false,
                                        ..::core::default::Default::default()
                                    },
                                    info: {
                                        #[allow(unused_imports)]
                                        use ::toolwright::__private::prelude::params::*;
                                        let __tw_probe = &::toolwright::__private::Probe::<
                                            f64,
                                        >::new();
                                        <_ as ::toolwright::__private::FieldType>::check(
                                            __tw_probe.schema_marker(),
                                        );
                                        __tw_probe.field_info()
                                    },
                                    flatten: false,
                                };
                                __tw_fields.push(__tw_field);
                            }
                            {
                                #[allow(unused_mut)]
                                let mut __tw_field = ::toolwright::__private::Field {
                                    spec: ::toolwright::__private::FieldSpec {
                                        name: "target",
                                        description: ::toolwright::__private::Some(
                                            "Where, in the base frame.",
                                        ),
                                        unit: ::toolwright::__private::None,
                                        minimum: ::toolwright::__private::None,
                                        maximum: ::toolwright::__private::None,
                                        min_length: ::toolwright::__private::None,
                                        max_length: ::toolwright::__private::None,
                                        min_items: ::toolwright::__private::None,
                                        max_items: ::toolwright::__private::None,
                                        pattern: ::toolwright::__private::None,
                                        default: ::toolwright::__private::None,
                                        examples: ::toolwright::__private::None,
                                        serde_default: false,
                                        skip_serializing_if: false,
                                        ..::core::default::Default::default()
                                    },
                                    info: {
                                        #[allow(unused_imports)]
                                        use ::toolwright::__private::prelude::params::*;
                                        let __tw_probe = &::toolwright::__private::Probe::<
                                            Position,
                                        >::new();
                                        <_ as ::toolwright::__private::FieldType>::check(
                                            __tw_probe.schema_marker(),
                                        );
                                        __tw_probe.field_info()
                                    },
                                    flatten: false,
                                };
                                __tw_fields.push(__tw_field);
                            }
                            __tw_fields
                        }),
                    });
                __tw_variants
                    .push(::toolwright::__private::Variant {
                        name: "stop",
                        description: ::toolwright::__private::Some("Stop where it is."),
                        shape: ::toolwright::__private::VariantShape::Unit,
                    });
                ::toolwright::__private::data_enum_schema(
                    generator,
                    ::toolwright::__private::Some("A command for the arm."),
                    ::toolwright::__private::EnumTagging::Internal("kind"),
                    &__tw_variants,
                )
            }
        }
    }
    #[automatically_derived]
    impl ::toolwright::ToolSchema for Command {}
    #[automatically_derived]
    impl ::toolwright::__private::SchemaShape for Command {
        const DEPTH: usize = {
            #[allow(unused_imports)]
            use ::toolwright::__private::ProbeFallback as _;
            ::toolwright::__private::max(
                ::toolwright::__private::max(
                    0,
                    ::toolwright::__private::max(
                        1
                            + ::toolwright::__private::max(
                                ::toolwright::__private::max(
                                    0,
                                    <::toolwright::__private::Probe<f64>>::DEPTH,
                                ),
                                <::toolwright::__private::Probe<Position>>::DEPTH,
                            ),
                        0,
                    ),
                ),
                1,
            )
        };
        const PROPERTIES: usize = {
            #[allow(unused_imports)]
            use ::toolwright::__private::ProbeFallback as _;
            0
        };
    }
};
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
    > as ::toolwright::__private::RangeTarget>::CHECK;
    const _: () = if <::toolwright::__private::Probe<
        ::toolwright::__private::Id<__TwT0>,
    >>::WIDTH
        .excludes(::toolwright::__private::Num::Float(0.1f64))
    {
        const __TW_MSG: ::toolwright::__private::Msg = <::toolwright::__private::Probe<
            ::toolwright::__private::Id<__TwT0>,
        >>::WIDTH
            .message(
                "the lower bound `0.1` of this `range` does not fit",
                "; the parameter can never reach it: change the bound, or widen the type",
            );
        ::core::panic!("{}", __TW_MSG.as_str())
    };
    const _: () = if <::toolwright::__private::Probe<
        ::toolwright::__private::Id<__TwT0>,
    >>::WIDTH
        .excludes(::toolwright::__private::Num::Float(1f64))
    {
        const __TW_MSG: ::toolwright::__private::Msg = <::toolwright::__private::Probe<
            ::toolwright::__private::Id<__TwT0>,
        >>::WIDTH
            .message(
                "the upper bound `1.0` of this `range` does not fit",
                "; the parameter can never reach it: change the bound, or widen the type",
            );
        ::core::panic!("{}", __TW_MSG.as_str())
    };
};
