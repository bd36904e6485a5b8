package io.agentfuse.gateway.pipeline;

import io.agentfuse.config.AgentfuseConfig;
import io.agentfuse.config.AgentfuseRuntime;
import io.agentfuse.config.ModelConfig;
import io.agentfuse.config.ProviderConfig;
import io.agentfuse.core.Guard;
import io.agentfuse.core.breaker.BreakerLimitException;
import io.agentfuse.gateway.dialect.Dialect;
import io.agentfuse.gateway.dialect.ChatRequest;
import io.agentfuse.gateway.dialect.ContinuationRequest;
import io.agentfuse.gateway.dialect.DialectTranslator;
import io.agentfuse.gateway.http.GatewayError;
import io.agentfuse.gateway.http.GatewayException;
import io.agentfuse.gateway.dialect.UntranslatableException;
import io.agentfuse.gateway.dialect.UpstreamAuth;
import io.agentfuse.gateway.provider.Dialects;
import io.agentfuse.gateway.provider.responses.ResponsesDialect;
import io.agentfuse.gateway.provider.responses.ResponsesStoredState;
import io.agentfuse.gateway.upstream.ProviderEndpoint;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * The pipeline's routing step: a request for a model becomes the steps of its fallback chain
 * ({@code config.chainFor(model, fromSubagent)}: the model, then its own fallbacks or, for a
 * subagent's request to a model without any, {@code subagents.fallbacks}), each with its
 * provider, its guard, and the request in the dialect the provider speaks to this caller (the
 * caller's own when it can, so an {@code openai} provider takes Responses callers as Responses
 * requests and Chat Completions callers as Chat Completions) under the step's
 * {@code upstreamModel}, written when the chain reaches the step ({@link PlannedStep#deferred}). A
 * step that cannot take the request (an untranslatable feature) is skipped, with the reason.
 *
 * <p>What goes upstream is built from the parsed request only: the caller's own credentials
 * ({@code Authorization}, {@code x-api-key}) are never forwarded; the provider's configured key
 * is added by the upstream client. The headers the provider's dialect forwards are passed on
 * ({@link Dialect#forwardedHeaders}: {@code anthropic-version} and {@code anthropic-beta} to
 * Anthropic providers). Thread-safe; reads the runtime's current configuration on every call.
 * <pre>{@code
 * List<PlannedStep> steps = new ModelRouter(runtime, client.proxySecrets()).plan(request, ctx.request().headers()).steps();
 * }</pre>
 */
final class ModelRouter {

    private final AgentfuseRuntime runtime;
    private final Map<EndpointKey, ProviderEndpoint> endpoints = new ConcurrentHashMap<>();
    /** Each configured provider's authentication, made once: its models share a token cache or a signer. */
    private final Map<ProviderConfig, UpstreamAuth> auths = new ConcurrentHashMap<>();
    private final List<String> proxySecrets;
    private volatile Chains chains = new Chains(null);
    /** {@link #model} as a function, made once: the parser of every request asks it. */
    private final Function<String, Optional<ModelConfig>> models = this::model;

    /** @param proxySecrets the egress proxy's login as sent ({@code UpstreamClient.proxySecrets}), for every endpoint */
    ModelRouter(AgentfuseRuntime runtime, List<String> proxySecrets) {
        this.runtime = runtime;
        this.proxySecrets = List.copyOf(proxySecrets);
        runtime.onFamilyModelDropped(model -> chains.forget(model.name()));
    }

    /** The model a request for {@code name} is served by ({@link AgentfuseRuntime#model}); empty for a name not served. */
    Optional<ModelConfig> model(String name) {
        return runtime.model(name);
    }

    /** {@link #model} as a function, for {@link RequestParser#parse}. */
    Function<String, Optional<ModelConfig>> models() {
        return models;
    }

    /** The error for a request of a model {@link #model} does not serve, under the configuration in force. */
    GatewayException notServed(String name) {
        return RequestParser.notServed(name, runtime.config());
    }

    /** The steps for {@code request}, in order; {@code clientHeaders} may be empty. */
    Plan plan(ModelRequest request, MultiMap clientHeaders) {
        return plan(request, clientHeaders, ContextStage.NONE);
    }

    /** The steps, each fallback's request fitted to its own window by {@code context}. */
    Plan plan(ModelRequest request, MultiMap clientHeaders, ContextStage context) {
        return plan(request, clientHeaders, context, null);
    }

    /**
     * The steps, each fallback's request fitted to its own window by {@code context}, under the
     * requested model's deadline (shortened to {@code callerLimit}, the caller's
     * {@code x-agentfuse-deadline}, when sooner; {@code null}: none) and hedge policy.
     */
    Plan plan(ModelRequest request, MultiMap clientHeaders, ContextStage context, Duration callerLimit) {
        AgentfuseConfig config = runtime.config();
        Route route = chains(config).of(model(request.model().name()).orElse(request.model()), request.fromSubagent()); // unsized
        List<ProviderEndpoint> providers = endpoints(route, config, request.dialect());
        List<PlannedStep> steps = new ArrayList<>(providers.size());
        for (int i = 0; i < providers.size(); i++) {
            ProviderEndpoint provider = providers.get(i);
            Map<String, String> headers = provider.dialect().forwardedHeaders(clientHeaders);
            ModelConfig model = CallerWindow.of(route.models().get(i), headers);
            var guard = guardOf(model);
            ProviderConfig settings = config.providerOf(model);
            steps.add(PlannedStep.deferred(model, provider, guard, () -> {
                refuseSharedStoredState(request.chat(), provider, settings);
                return runnable(request, fitted(request, model, context), model, provider, guard, headers, context);
            }));
        }
        String requested = request.model().name();
        return new Plan(route, steps, runtime.deadline(requested, callerLimit),
                runtime.hedgePolicy(requested).orElse(null), !config.models().containsKey(requested));
    }

    /**
     * The steps that continue {@code plan}'s stream answered by {@code answered} and broken after its
     * first byte ({@code models.<m>.streamContinuation}): the steps after it, each asking its provider
     * to continue the text already {@code sent} ({@link ContinuationRequest}) with the headers it
     * forwards from {@code clientHeaders}, under the plan's deadline, without a hedge. A step skipped
     * in the plan stays skipped; none when none follows. The plan's own requests are not needed.
     */
    static Plan continuation(ModelRequest request, Plan plan, MultiMap clientHeaders, PlannedStep answered, String sent,
                             ContextStage context) {
        List<PlannedStep> steps = new ArrayList<>();
        List<ModelConfig> models = new ArrayList<>();
        int next = plan.indexOf(answered) + 1;
        for (PlannedStep step : plan.steps().subList(next <= 0 ? plan.steps().size() : next, plan.steps().size())) {
            models.add(step.model());
            if (step.skipReason() != null) {
                steps.add(step);
                continue;
            }
            try {
                ChatRequest continued = ContinuationRequest.of(fitted(request, step.model(), context), sent,
                        step.provider().dialect(), step.model().contextWindow());
                steps.add(runnable(request, continued, step.model(), step.provider(), step.guard(),
                        step.provider().dialect().forwardedHeaders(clientHeaders), context));
            } catch (UntranslatableException | GatewayException unfit) {
                steps.add(PlannedStep.skipped(step.model(), step.provider(), step.guard(), unfit.getMessage()));
            }
        }
        return new Plan(new Route(models), steps, plan.deadline(), null, false);
    }

    /** The request's conversation as {@code model} takes it: fitted to its window when it is a fallback. */
    private static ChatRequest fitted(ModelRequest request, ModelConfig model, ContextStage context) {
        return model.name().equals(request.model().name()) ? request.chat()
                : context.fitForFallback(request.chat(), request.model(), model);
    }

    /**
     * The step that sends {@code chat} to {@code provider}'s model: the caller's own bytes with the replaced
     * fields patched in when {@code chat} is the caller's unchanged request in the provider's dialect, else
     * the body written for it; its output asked as {@link StepOutputLimit} says.
     *
     * @throws UntranslatableException when the provider's dialect cannot take {@code chat}
     */
    private static PlannedStep runnable(ModelRequest request, ChatRequest chat, ModelConfig model,
                                        ProviderEndpoint provider, Guard guard, Map<String, String> headers,
                                        ContextStage context) {
        boolean lenient = model.translate() == ModelConfig.Translate.LENIENT;
        var body = DialectTranslator.upstreamRequest(chat, provider.dialect(), model.upstreamModel(), lenient, model.contextWindow());
        StepOutputLimit.apply(body, chat, model, context);
        Buffer bytes = chat == request.chat() && chat.dialect() == provider.dialect()
                && request.forwarded() != null ? request.forwarded().write(chat.received(), body) : null;
        // With the bytes known, the parsed body is not kept: it would hold the conversation's tree.
        return PlannedStep.runnable(model, provider, guard, bytes == null ? body : null, bytes, headers,
                DialectTranslator.dropped(chat, provider.dialect(), lenient));
    }

    /**
     * The guard of {@code model}. A family model may stop being served between the request's parse
     * and here (its breaker dropped to make room for another name): then the request is answered as
     * one for a model not served, not as a fault of the gateway.
     */
    private Guard guardOf(ModelConfig model) {
        try {
            return runtime.modelGuard(model.name());
        } catch (IllegalArgumentException | BreakerLimitException dropped) {
            throw notServed(model.name());
        }
    }

    /**
     * A Responses request that refers to stored state by id goes only to a provider configured to
     * allow it: the state is stored under the gateway's key, which every caller shares
     * ({@link ResponsesStoredState}). Across dialects such a request is untranslatable anyway.
     */
    private static void refuseSharedStoredState(ChatRequest chat, ProviderEndpoint provider, ProviderConfig settings) {
        if (provider.dialect() == ResponsesDialect.INSTANCE && !settings.storedResponses()) {
            ResponsesStoredState.referenceIn(chat.received()).ifPresent(reference -> {
                throw new GatewayException(GatewayError.INVALID_REQUEST, ResponsesStoredState.refusal(reference, settings.name()));
            });
        }
    }

    /** The providers of {@code route}'s models for callers of {@code caller}, kept on the route once made. */
    private List<ProviderEndpoint> endpoints(Route route, AgentfuseConfig config, Dialect caller) {
        List<ProviderEndpoint> providers = route.endpoints(caller);
        if (providers == null) {
            providers = new ArrayList<>(route.models().size());
            for (ModelConfig model : route.models()) {
                providers.add(endpoint(config.providerOf(model), caller, model.upstreamModel()));
            }
            route.endpoints(caller, providers);
        }
        return providers;
    }

    /**
     * The endpoint of a configured provider's model for a caller of dialect {@code caller} — the
     * caller's own dialect when the provider speaks it ({@link Dialects#forProvider}) — made once per
     * provider settings, model and dialect rather than per request (Bedrock, Gemini and Vertex AI name
     * the model in the path; Vertex AI's dialect depends on the model).
     */
    private ProviderEndpoint endpoint(ProviderConfig provider, Dialect caller, String upstreamModel) {
        return endpoints.computeIfAbsent(new EndpointKey(provider, caller, upstreamModel), this::newEndpoint);
    }

    private ProviderEndpoint newEndpoint(EndpointKey key) {
        ProviderConfig provider = key.provider();
        Dialect dialect = Dialects.forProvider(provider.type().name(), key.caller(), key.upstreamModel()).orElseThrow(() ->
                new IllegalStateException("no dialect is registered for provider type " + provider.type()));
        return ProviderEndpoint.of(provider, dialect, key.upstreamModel(),
                auths.computeIfAbsent(provider, dialect::upstreamAuth), proxySecrets);
    }

    private Chains chains(AgentfuseConfig config) {
        Chains current = chains;
        if (current.config != config) {
            current = new Chains(config); // a reload: the chains of the configuration now in force
            chains = current;
        }
        return current;
    }

    /**
     * The fallback chains of one configuration, made once per model rather than per request: the
     * configured ones and the family models the runtime serves, which it bounds (a family model
     * it stops serving takes its routes with it).
     */
    private static final class Chains {
        private final AgentfuseConfig config;
        private final Map<String, Route> direct = new ConcurrentHashMap<>();
        private final Map<String, Route> fromSubagents = new ConcurrentHashMap<>();

        Chains(AgentfuseConfig config) {
            this.config = config;
        }

        /** Drops the routes of {@code model}, which the runtime no longer serves. */
        void forget(String model) {
            direct.remove(model);
            fromSubagents.remove(model);
        }

        Route of(ModelConfig model, boolean fromSubagent) {
            Map<String, Route> known = fromSubagent ? fromSubagents : direct;
            Route route = known.get(model.name());
            // The model as this configuration has it: a request parsed before a reload holds the old one.
            return route != null ? route : known.computeIfAbsent(model.name(),
                    name -> new Route(config.chainFor(config.model(name).orElse(model), fromSubagent)));
        }
    }

    /** A provider's model as seen by callers of one dialect. */
    private record EndpointKey(ProviderConfig provider, Dialect caller, String upstreamModel) {
    }
}
