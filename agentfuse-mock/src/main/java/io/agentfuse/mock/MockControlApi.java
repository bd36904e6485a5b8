package io.agentfuse.mock;

import io.vertx.core.json.DecodeException;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

import java.util.ArrayList;
import java.util.List;

/**
 * The control API of a {@link MockProvider} (see its Javadoc): scripting, the default step, reset,
 * the recorded requests, and new Vertex service accounts. A bad control request gets a 400 with
 * {@code {"error": "..."}} naming what is wrong.
 *
 * <p>Thread-safe.
 */
final class MockControlApi {

    private final MockProvider mock;
    private final MockScript script;
    private final RequestJournal journal;

    MockControlApi(MockProvider mock, MockScript script, RequestJournal journal) {
        this.mock = mock;
        this.script = script;
        this.journal = journal;
    }

    void mount(Router router) {
        router.post("/_mock/script").handler(this::appendScript);
        router.post("/_mock/default").handler(ctx -> control(ctx, () -> {
            script.defaultStep(MockStep.fromJson(ctx.body().asJsonObject()));
            return new JsonObject().put("pending", script.pending());
        }));
        router.post("/_mock/reset").handler(ctx -> control(ctx, () -> {
            mock.reset();
            return new JsonObject().put("pending", 0);
        }));
        router.post("/_mock/vertex/serviceAccount").handler(ctx -> control(ctx, () -> {
            JsonObject asked = ctx.body().length() == 0 ? new JsonObject() : ctx.body().asJsonObject();
            return mock.newVertexServiceAccount(asked.getString("project", "mock-project")).json();
        }));
        router.get("/_mock/requests").handler(ctx -> control(ctx, () -> new JsonObject()
                .put("requests", new JsonArray(journal.snapshot().stream().map(RecordedRequest::toJson).toList()))));
    }

    private void appendScript(RoutingContext ctx) {
        control(ctx, () -> {
            Object parsed = Json.decodeValue(ctx.body().buffer());
            JsonArray steps;
            String model = null;
            String path = null;
            if (parsed instanceof JsonArray array) {
                steps = array;
            } else if (parsed instanceof JsonObject object) {
                steps = object.getJsonArray("steps");
                model = object.getString("model");
                path = object.getString("path");
                if (steps == null) {
                    throw new IllegalArgumentException("a script object needs a 'steps' list");
                }
            } else {
                throw new IllegalArgumentException("a script is a list of steps or {\"steps\": [...]}");
            }
            List<MockStep> parsedSteps = new ArrayList<>();
            for (int i = 0; i < steps.size(); i++) {
                if (!(steps.getValue(i) instanceof JsonObject step)) {
                    throw new IllegalArgumentException("steps[" + i + "] must be a JSON object");
                }
                parsedSteps.add(MockStep.fromJson(step));
            }
            script.append(model, path, parsedSteps);
            return new JsonObject().put("pending", script.pending());
        });
    }

    private static void control(RoutingContext ctx, ControlAction action) {
        JsonObject answer;
        try {
            answer = action.run();
        } catch (IllegalArgumentException | ClassCastException | DecodeException | NullPointerException e) {
            ctx.response().setStatusCode(400).putHeader("content-type", "application/json")
                    .end(new JsonObject().put("error", String.valueOf(e.getMessage())).encode());
            return;
        }
        ctx.response().putHeader("content-type", "application/json").end(answer.encode());
    }

    @FunctionalInterface
    private interface ControlAction {
        JsonObject run();
    }
}
