package io.agentfuse.gateway.provider.responses;

import io.agentfuse.gateway.provider.Dialects;
import io.agentfuse.gateway.dialect.ChatMessage;
import io.agentfuse.gateway.dialect.ChatMessage.Role;
import io.agentfuse.gateway.dialect.ChatRequest;
import io.agentfuse.gateway.dialect.ContentPart;
import io.agentfuse.gateway.dialect.InvalidRequestException;
import io.agentfuse.gateway.dialect.ToolChoice;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.agentfuse.gateway.provider.responses.ResponsesRequests.message;
import static io.agentfuse.gateway.provider.responses.ResponsesRequests.part;
import static io.agentfuse.gateway.provider.responses.ResponsesRequests.request;
import static io.agentfuse.gateway.provider.responses.ResponsesRequests.toolConversation;
import static io.agentfuse.gateway.provider.responses.ResponsesRequests.weatherTool;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@link ResponsesRequestParser} reads a Responses API request into the neutral request: its input
 * items, instructions, tools, tool choice and sampling; and refuses a malformed one naming the field.
 */
class ResponsesRequestReadingTest {

    @Test
    void readsAStringInputAsOneUserMessage() {
        ChatRequest parsed = ResponsesRequestParser.parse(request("Hello").put("instructions", "Answer in French."));

        assertThat(parsed.dialect()).isSameAs(Dialects.RESPONSES);
        assertThat(parsed.model()).isEqualTo("gpt-4.1-mini");
        assertThat(parsed.system()).isEqualTo("Answer in French.");
        assertThat(parsed.messages()).containsExactly(new ChatMessage(Role.USER, List.of(new ContentPart.Text("Hello"))));
        assertThat(parsed.untranslatable()).isEmpty();
        assertThat(parsed.stream()).isFalse();
    }

    @Test
    void joinsInstructionsAndSystemMessagesIntoTheSystemPrompt() {
        JsonArray input = new JsonArray().add(message("system", "Rule one."))
                .add(message("developer", new JsonArray().add(part("input_text", "text", "Rule two."))))
                .add(message("user", "Hi"));

        ChatRequest parsed = ResponsesRequestParser.parse(request(input).put("instructions", "Be kind."));

        assertThat(parsed.system()).isEqualTo("Be kind.\n\nRule one.\n\nRule two.");
        assertThat(parsed.messages()).hasSize(1);
    }

    @Test
    void readsTextAndImagePartsOfAUserMessage() {
        JsonArray content = new JsonArray().add(part("input_text", "text", "What is this?"))
                .add(part("input_image", "image_url", "https://example.com/cat.png").put("detail", "auto"));

        ChatRequest parsed = ResponsesRequestParser.parse(request(new JsonArray().add(message("user", content))));

        assertThat(parsed.messages().get(0).content()).containsExactly(new ContentPart.Text("What is this?"),
                new ContentPart.Image("https://example.com/cat.png"));
        assertThat(parsed.untranslatable()).isEmpty();
    }

    @Test
    void readsFunctionCallsIntoTheAssistantTurnAndTheirOutputsAsToolResults() {
        ChatRequest parsed = ResponsesRequestParser.parse(request(toolConversation()));

        assertThat(parsed.system()).isEqualTo("Be brief.");
        assertThat(parsed.messages()).containsExactly(
                new ChatMessage(Role.USER, List.of(new ContentPart.Text("Weather in Paris?"))),
                new ChatMessage(Role.ASSISTANT, List.of(new ContentPart.Text("Let me check."),
                        new ContentPart.ToolCall("call_1", "get_weather", "{\"city\":\"Paris\"}"))),
                new ChatMessage(Role.USER, List.of(new ContentPart.ToolResult("call_1", "18°C", false))));
        assertThat(parsed.untranslatable()).isEmpty();
    }

    @Test
    void keepsParallelFunctionCallOutputsInOneTurn() {
        JsonArray input = new JsonArray().add(message("user", "Two cities"))
                .add(new JsonObject().put("type", "function_call").put("call_id", "a").put("name", "w").put("arguments", "{}"))
                .add(new JsonObject().put("type", "function_call").put("call_id", "b").put("name", "w").put("arguments", "{}"))
                .add(new JsonObject().put("type", "function_call_output").put("call_id", "a").put("output", "1"))
                .add(new JsonObject().put("type", "function_call_output").put("call_id", "b")
                        .put("output", new JsonArray().add(part("input_text", "text", "2"))));

        List<ChatMessage> messages = ResponsesRequestParser.parse(request(input)).messages();

        assertThat(messages).hasSize(3);
        assertThat(messages.get(1).content()).hasSize(2);
        assertThat(messages.get(2).content()).containsExactly(new ContentPart.ToolResult("a", "1", false),
                new ContentPart.ToolResult("b", "2", false));
    }

    @Test
    void readsFlatFunctionToolsToolChoiceAndSampling() {
        JsonObject body = request("Hi").put("tools", new JsonArray().add(weatherTool()))
                .put("tool_choice", new JsonObject().put("type", "function").put("name", "get_weather"))
                .put("parallel_tool_calls", false).put("max_output_tokens", 256).put("temperature", 0.5)
                .put("top_p", 0.9).put("stream", true).put("user", "u-1")
                .put("reasoning", new JsonObject().put("effort", "low")).put("store", false)
                .put("metadata", new JsonObject().put("run", "7")).put("include", new JsonArray().add("reasoning.encrypted_content"));

        ChatRequest parsed = ResponsesRequestParser.parse(body);

        assertThat(parsed.tools()).hasSize(1);
        assertThat(parsed.tools().get(0).name()).isEqualTo("get_weather");
        assertThat(parsed.tools().get(0).description()).isEqualTo("Weather of a city");
        assertThat(parsed.tools().get(0).parameters().getJsonObject("properties").containsKey("city")).isTrue();
        assertThat(parsed.toolChoice()).isEqualTo(new ToolChoice(ToolChoice.Mode.TOOL, "get_weather", false));
        assertThat(parsed.sampling().maxTokens()).isEqualTo(256);
        assertThat(parsed.sampling().temperature()).isEqualTo(0.5);
        assertThat(parsed.sampling().topP()).isEqualTo(0.9);
        assertThat(parsed.stream()).isTrue();
        assertThat(parsed.endUser()).isEqualTo("u-1");
        assertThat(parsed.untranslatable()).isEmpty();
    }

    @Test
    void readsStringToolChoices() {
        for (String mode : List.of("auto", "required", "none")) {
            ChatRequest parsed = ResponsesRequestParser.parse(request("Hi").put("tool_choice", mode));
            assertThat(parsed.toolChoice().mode().name()).isEqualTo(mode.toUpperCase());
        }
    }

    @Test
    void flattensTheFunctionsOfANamespaceToolAndTheirCalls() {
        JsonObject body = request(new JsonArray().add(message("user", "Hi"))
                        .add(new JsonObject().put("type", "function_call").put("call_id", "c1").put("namespace", "agents")
                                .put("name", "close_agent").put("arguments", "{}"))
                        .add(new JsonObject().put("type", "function_call_output").put("call_id", "c1").put("output", "ok")))
                .put("tools", new JsonArray().add(new JsonObject().put("type", "namespace").put("name", "agents")
                        .put("description", "sub-agents").put("tools", new JsonArray().add(new JsonObject()
                                .put("type", "function").put("name", "close_agent")
                                .put("parameters", new JsonObject().put("type", "object"))))));

        ChatRequest parsed = ResponsesRequestParser.parse(body);

        assertThat(parsed.untranslatable()).isEmpty();
        assertThat(parsed.crossing().lenientReasons()).isEmpty();
        assertThat(parsed.tools()).extracting(tool -> tool.name()).containsExactly("agents__close_agent");
        assertThat(parsed.messages().get(1).content()).singleElement()
                .isEqualTo(new ContentPart.ToolCall("c1", "agents__close_agent", "{}"));
    }

    @Test
    void rejectsRequestsWithoutModelOrInputNamingTheField() {
        assertThatThrownBy(() -> ResponsesRequestParser.parse(new JsonObject().put("input", "Hi")))
                .isInstanceOf(InvalidRequestException.class).hasMessage("model is required");
        assertThatThrownBy(() -> ResponsesRequestParser.parse(new JsonObject().put("model", "m")))
                .isInstanceOf(InvalidRequestException.class).hasMessage("input is required");
        assertThatThrownBy(() -> ResponsesRequestParser.parse(request(new JsonArray())))
                .isInstanceOf(InvalidRequestException.class).hasMessage("input must contain at least one message");
        assertThatThrownBy(() -> ResponsesRequestParser.parse(request(42)))
                .isInstanceOf(InvalidRequestException.class)
                .hasMessage("input must be a string or an array of input items");
    }

    @Test
    void acceptsAMissingInputWhenThePreviousResponseCarriesTheConversation() {
        ChatRequest parsed = ResponsesRequestParser.parse(new JsonObject().put("model", "m")
                .put("previous_response_id", "resp_1"));

        assertThat(parsed.messages()).isEmpty();
        assertThat(parsed.untranslatable()).isNotEmpty();
    }

    @Test
    void rejectsMalformedItemsNamingTheirPath() {
        assertThatThrownBy(() -> ResponsesRequestParser.parse(request(new JsonArray().add(message("robot", "Hi")))))
                .isInstanceOf(InvalidRequestException.class).hasMessageContaining("input[0].role must be one of");
        assertThatThrownBy(() -> ResponsesRequestParser.parse(request(new JsonArray()
                .add(new JsonObject().put("type", "function_call").put("name", "w").put("arguments", "{}")))))
                .isInstanceOf(InvalidRequestException.class).hasMessage("input[0].call_id is required");
        assertThatThrownBy(() -> ResponsesRequestParser.parse(request("Hi")
                .put("tools", new JsonArray().add(new JsonObject().put("type", "function")))))
                .isInstanceOf(InvalidRequestException.class).hasMessage("tools[0].name is required");
        assertThatThrownBy(() -> ResponsesRequestParser.parse(request("Hi").put("max_output_tokens", "many")))
                .isInstanceOf(InvalidRequestException.class).hasMessageContaining("max_output_tokens must be an integer");
        assertThatThrownBy(() -> ResponsesRequestParser.parse(request("Hi").put("tool_choice", "sometimes")))
                .isInstanceOf(InvalidRequestException.class).hasMessageContaining("tool_choice must be");
    }
}
