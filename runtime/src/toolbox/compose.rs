//! Composition with rmcp for the rest of the protocol: a handler of the user's own (resources,
//! prompts, completion, written with rmcp) that delegates tools to the toolbox
//! ([`delegate_tools!`](crate::delegate_tools)), served the toolbox's way
//! ([`ToolboxBuilder::with_handler`]): stdio with calls ordered as they arrive, hardened HTTP, the
//! command line.

use std::sync::Arc;

use rmcp::{RoleServer, ServerHandler};

use super::{BuildError, ServeError, Toolbox, ToolboxBuilder};

/// What builds the handler that answers a session, around the toolbox.
pub(crate) type MakeHandler<S, H> = Arc<dyn Fn(Toolbox<S>) -> H + Send + Sync>;

/// A [`ToolboxBuilder`] whose toolbox a handler of your own will serve
/// ([`ToolboxBuilder::with_handler`]): [`WithHandlerBuilder::build`] builds the toolbox, or
/// [`WithHandlerBuilder::run_cli`] runs the command line, whose `serve` answers with the handler.
pub struct WithHandlerBuilder<S, H> {
    pub(crate) builder: ToolboxBuilder<S>,
    pub(crate) make: MakeHandler<S, H>,
}

/// A built toolbox served by a handler of your own ([`WithHandlerBuilder::build`]):
/// everything toolwright adds (validation, policy, groups, `describe_tool`, ordering, HTTP
/// hardening) stays, since the handler delegates tools to the toolbox, and the handler answers
/// the rest of the protocol.
pub struct WithHandler<S, H> {
    pub(crate) toolbox: Toolbox<S>,
    pub(crate) make: MakeHandler<S, H>,
}

impl<S: Send + Sync + 'static> ToolboxBuilder<S> {
    /// Serves this toolbox, once built, through a handler of your own: `make` builds it around
    /// the toolbox (once per session over HTTP, once over stdio), and the handler delegates the
    /// tools to it with [`delegate_tools!`](crate::delegate_tools), answering resources, prompts
    /// or completion itself with rmcp. Give every setting before it.
    ///
    /// ```rust,no_run
    /// use rmcp::ServerHandler;
    /// use rmcp::model::{ListResourcesResult, PaginatedRequestParams, ServerConfig};
    /// use rmcp::service::RequestContext;
    /// use rmcp::{ErrorData, RoleServer};
    /// use toolwright::{Toolbox, ToolboxBuilder};
    ///
    /// #[derive(Clone)]
    /// struct Robot {
    ///     tools: Toolbox<()>,
    /// }
    ///
    /// impl ServerHandler for Robot {
    ///     toolwright::delegate_tools!(tools);
    ///
    ///     fn get_info(&self) -> ServerConfig {
    ///         let mut info = self.tools.get_info();
    ///         info.capabilities.resources = Some(Default::default());
    ///         info
    ///     }
    ///
    ///     async fn list_resources(
    ///         &self,
    ///         _request: Option<PaginatedRequestParams>,
    ///         _context: RequestContext<RoleServer>,
    ///     ) -> Result<ListResourcesResult, ErrorData> {
    ///         Ok(ListResourcesResult::default())
    ///     }
    /// }
    ///
    /// # async fn demo(tools: ToolboxBuilder<()>) {
    /// let code = tools.with_handler(|tools| Robot { tools }).run_cli().await;
    /// # }
    /// ```
    pub fn with_handler<H, F>(self, make: F) -> WithHandlerBuilder<S, H>
    where
        H: ServerHandler,
        F: Fn(Toolbox<S>) -> H + Send + Sync + 'static,
    {
        WithHandlerBuilder {
            builder: self,
            make: Arc::new(make),
        }
    }
}

impl<S: Send + Sync + 'static, H: ServerHandler> WithHandlerBuilder<S, H> {
    /// Builds the toolbox (see [`ToolboxBuilder::build`]), to serve with the handler.
    pub fn build(self) -> Result<WithHandler<S, H>, BuildError> {
        Ok(WithHandler {
            toolbox: self.builder.build()?,
            make: self.make,
        })
    }

    /// Runs the command line from the process's arguments (see [`ToolboxBuilder::run_cli`]):
    /// `serve` answers with the handler, the other commands (`tools`, `call`, `export`,
    /// `check`) use the toolbox. Returns the exit code.
    #[cfg(feature = "cli")]
    #[cfg_attr(docsrs, doc(cfg(feature = "cli")))]
    pub async fn run_cli(self) -> i32 {
        self.run_cli_from(std::env::args_os()).await
    }

    /// [`WithHandlerBuilder::run_cli`] from these arguments (the first is the program name).
    #[cfg(feature = "cli")]
    #[cfg_attr(docsrs, doc(cfg(feature = "cli")))]
    pub async fn run_cli_from<I, T>(self, args: I) -> i32
    where
        I: IntoIterator<Item = T>,
        T: Into<std::ffi::OsString> + Clone,
    {
        self.builder.run_cli_as(args, self.make).await
    }
}

impl<S: Send + Sync + 'static, H: ServerHandler> WithHandler<S, H> {
    /// The toolbox: clone it to keep a handle on the toolbox served (to enable a group while
    /// it serves).
    pub fn toolbox(&self) -> &Toolbox<S> {
        &self.toolbox
    }

    /// Serves over stdin/stdout (see [`Toolbox::serve_stdio`]).
    pub async fn serve_stdio(self) -> Result<(), ServeError> {
        let make = self.make;
        self.toolbox
            .serve_stdio_as(move |connection| make(connection))
            .await
    }

    /// Serves over any rmcp transport (see [`Toolbox::serve`]).
    pub async fn serve<T, E, A>(
        self,
        transport: T,
    ) -> Result<rmcp::service::RunningService<RoleServer, H>, rmcp::service::ServerInitializeError>
    where
        T: rmcp::transport::IntoTransport<RoleServer, E, A>,
        E: std::error::Error + Send + Sync + 'static,
    {
        let make = self.make;
        self.toolbox
            .serve_as(move |connection| make(connection), transport)
            .await
    }
}

/// Implements the tool methods of rmcp's `ServerHandler` (`list_tools`, `call_tool`,
/// `get_tool`, `set_level`, `on_initialized`, `accepted_subscription_filter` and `listen` for
/// `subscriptions/listen`, and `get_task`, `update_task` and `cancel_task` for tasks) by delegating to a [`Toolbox`] field, inside
/// `impl ServerHandler for YourHandler { .. }`: validation, policy, groups and `describe_tool`
/// stay toolwright's. Merge capabilities in your `get_info` from the toolbox's
/// (`let mut info = self.tools.get_info();`). See [`ToolboxBuilder::with_handler`].
#[macro_export]
macro_rules! delegate_tools {
    ($field:ident) => {
        async fn list_tools(
            &self,
            request: ::core::option::Option<$crate::__private::rmcp::model::PaginatedRequestParams>,
            context: $crate::__private::rmcp::service::RequestContext<
                $crate::__private::rmcp::RoleServer,
            >,
        ) -> ::core::result::Result<
            $crate::__private::rmcp::model::ListToolsResult,
            $crate::__private::rmcp::ErrorData,
        > {
            $crate::__private::rmcp::ServerHandler::list_tools(&self.$field, request, context).await
        }

        async fn call_tool(
            &self,
            request: $crate::__private::rmcp::model::CallToolRequestParams,
            context: $crate::__private::rmcp::service::RequestContext<
                $crate::__private::rmcp::RoleServer,
            >,
        ) -> ::core::result::Result<
            $crate::__private::rmcp::model::CallToolResponse,
            $crate::__private::rmcp::ErrorData,
        > {
            $crate::__private::rmcp::ServerHandler::call_tool(&self.$field, request, context).await
        }

        fn get_tool(
            &self,
            name: &str,
        ) -> ::core::option::Option<$crate::__private::rmcp::model::Tool> {
            $crate::__private::rmcp::ServerHandler::get_tool(&self.$field, name)
        }

        // `logging/setLevel`, of protocols before 2026-07-28 (deprecated by SEP-2577).
        #[allow(deprecated)]
        async fn set_level(
            &self,
            request: $crate::__private::rmcp::model::SetLevelRequestParams,
            context: $crate::__private::rmcp::service::RequestContext<
                $crate::__private::rmcp::RoleServer,
            >,
        ) -> ::core::result::Result<(), $crate::__private::rmcp::ErrorData> {
            $crate::__private::rmcp::ServerHandler::set_level(&self.$field, request, context).await
        }

        async fn on_initialized(
            &self,
            context: $crate::__private::rmcp::service::NotificationContext<
                $crate::__private::rmcp::RoleServer,
            >,
        ) {
            $crate::__private::rmcp::ServerHandler::on_initialized(&self.$field, context).await
        }

        // `subscriptions/listen` (protocol 2026-07-28): tool list changes.
        fn accepted_subscription_filter(
            &self,
            requested: &$crate::__private::rmcp::model::SubscriptionFilter,
        ) -> ::core::option::Option<$crate::__private::rmcp::model::SubscriptionFilter> {
            $crate::__private::rmcp::ServerHandler::accepted_subscription_filter(
                &self.$field,
                requested,
            )
        }

        async fn listen(
            &self,
            subscription: $crate::__private::rmcp::service::SubscriptionContext,
        ) -> ::core::result::Result<(), $crate::__private::rmcp::ErrorData> {
            $crate::__private::rmcp::ServerHandler::listen(&self.$field, subscription).await
        }

        // The tasks extension (protocol 2026-07-28): tools declared `task = ".."`.
        async fn get_task(
            &self,
            request: $crate::__private::rmcp::model::GetTaskParams,
            context: $crate::__private::rmcp::service::RequestContext<
                $crate::__private::rmcp::RoleServer,
            >,
        ) -> ::core::result::Result<
            $crate::__private::rmcp::model::GetTaskResult,
            $crate::__private::rmcp::ErrorData,
        > {
            $crate::__private::rmcp::ServerHandler::get_task(&self.$field, request, context).await
        }

        async fn update_task(
            &self,
            request: $crate::__private::rmcp::model::UpdateTaskParams,
            context: $crate::__private::rmcp::service::RequestContext<
                $crate::__private::rmcp::RoleServer,
            >,
        ) -> ::core::result::Result<(), $crate::__private::rmcp::ErrorData> {
            $crate::__private::rmcp::ServerHandler::update_task(&self.$field, request, context)
                .await
        }

        async fn cancel_task(
            &self,
            request: $crate::__private::rmcp::model::CancelTaskParams,
            context: $crate::__private::rmcp::service::RequestContext<
                $crate::__private::rmcp::RoleServer,
            >,
        ) -> ::core::result::Result<(), $crate::__private::rmcp::ErrorData> {
            $crate::__private::rmcp::ServerHandler::cancel_task(&self.$field, request, context)
                .await
        }
    };
}
