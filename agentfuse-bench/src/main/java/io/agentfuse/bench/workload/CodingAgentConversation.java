package io.agentfuse.bench.workload;

import io.agentfuse.agent.conversation.ContentBlock;
import io.agentfuse.agent.conversation.Conversation;
import io.agentfuse.agent.conversation.Message;
import io.agentfuse.agent.conversation.Role;
import io.agentfuse.agent.conversation.TextBlock;
import io.agentfuse.agent.conversation.ToolResultBlock;
import io.agentfuse.agent.conversation.ToolUseBlock;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The request a coding agent really sends: a system prompt, four tool schemas and {@code turns}
 * turns of prompt, tool call, tool result (a source file) and an answer with code; 60 turns make
 * about 150 KB of OpenAI chat-completion JSON. Deterministic: turn {@code i} is the same in every
 * run and for every number of turns, so {@code turns + 1} is the same conversation resent with
 * one more turn, as an agent does.
 *
 * <p>Used by the token-counting benchmark ({@link io.agentfuse.bench.TokenCountingBench}) and, through
 * {@link #main}, by the gateway load script, which sends the body it writes.
 *
 * <pre>{@code
 * java -cp benchmarks.jar io.agentfuse.bench.workload.CodingAgentConversation body.json 60 gpt-4o-mini
 * }</pre>
 */
public final class CodingAgentConversation {

    /** The turns of the benchmark workload. */
    public static final int DEFAULT_TURNS = 60;

    private static final long SEED = 20_261_201L;
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private static final String[] NOUNS = {"breaker", "ladder", "window", "budget", "retry", "permit", "stream",
        "chunk", "token", "session", "request", "answer", "model", "provider", "event", "probe", "config"};
    private static final String[] VERBS = {"open", "close", "record", "count", "parse", "encode", "relay", "retry",
        "measure", "compact", "snip", "route", "guard", "publish", "reset", "check", "load"};
    private static final String[] TYPES = {"long", "int", "String", "boolean", "Duration", "List<String>"};

    private final List<ObjectNode> messages;

    private CodingAgentConversation(List<ObjectNode> messages) {
        this.messages = messages;
    }

    /** The conversation with {@code turns} turns after the system prompt. */
    public static CodingAgentConversation of(int turns) {
        return of(turns, 0);
    }

    /**
     * The conversation of agent session {@code session} with {@code turns} turns after the system
     * prompt: every session has the same system prompt and tools, and turns of its own (session 0 is
     * {@link #of(int)}'s), as a gateway serving many agents at once sees them.
     */
    public static CodingAgentConversation of(int turns, int session) {
        if (turns < 0) {
            throw new IllegalArgumentException("turns must be >= 0, but was " + turns);
        }
        List<ObjectNode> messages = new ArrayList<>();
        messages.add(JSON.objectNode().put("role", "system").put("content", systemPrompt()));
        for (int turn = 0; turn < turns; turn++) {
            addTurn(messages, turn, new Random(SEED + session * 1_000_003L + turn));
        }
        return new CodingAgentConversation(messages);
    }

    /** The OpenAI chat-completion body asking {@code model}, with the tool schemas. */
    public ObjectNode body(String model) {
        ObjectNode body = JSON.objectNode().put("model", model).put("max_tokens", 1024);
        ArrayNode array = body.putArray("messages");
        messages.forEach(message -> array.add(message.deepCopy()));
        body.set("tools", tools());
        return body;
    }

    /** The same messages as the gateway sees them: system, then user, assistant and tool results. */
    public Conversation conversation() {
        List<Message> converted = new ArrayList<>();
        for (ObjectNode message : messages) {
            String role = message.get("role").asString();
            List<ContentBlock> blocks = new ArrayList<>();
            if (message.hasNonNull("content")) {
                blocks.add(role.equals("tool")
                        ? new ToolResultBlock(message.get("tool_call_id").asString(), message.get("content").asString(), false)
                        : new TextBlock(message.get("content").asString()));
            }
            if (message.has("tool_calls")) {
                message.get("tool_calls").forEach(call -> blocks.add(new ToolUseBlock(call.get("id").asString(),
                        call.get("function").get("name").asString(), call.get("function").get("arguments").asString())));
            }
            Role mapped = switch (role) {
                case "system" -> Role.SYSTEM;
                case "assistant" -> Role.ASSISTANT;
                default -> Role.USER;
            };
            converted.add(new Message(mapped, blocks, false, Map.of()));
        }
        return new Conversation(converted);
    }

    /**
     * Writes the body to a file: {@code FILE [TURNS] [MODEL] [SESSION]}, by default 60 turns of
     * session 0 asking {@code gpt-4o-mini}. Prints the file's size in bytes.
     */
    public static void main(String[] args) throws IOException {
        if (args.length < 1 || args.length > 4) {
            System.err.println("usage: CodingAgentConversation FILE [TURNS] [MODEL] [SESSION]");
            System.exit(2);
        }
        int turns = args.length > 1 ? Integer.parseInt(args[1]) : DEFAULT_TURNS;
        String model = args.length > 2 ? args[2] : "gpt-4o-mini";
        int session = args.length > 3 ? Integer.parseInt(args[3]) : 0;
        byte[] json = JsonMapper.builder().build().writeValueAsBytes(of(turns, session).body(model));
        Files.write(Path.of(args[0]), json);
        System.out.println(json.length);
    }

    private static void addTurn(List<ObjectNode> messages, int turn, Random random) {
        String file = "src/main/java/io/example/" + capitalised(pick(random, NOUNS)) + capitalised(pick(random, NOUNS))
                + turn + ".java";
        String callId = "call_" + Long.toHexString(random.nextLong() & 0xFFFFFFFFFFFFL);
        messages.add(JSON.objectNode().put("role", "user").put("content", "Turn " + turn + ": the test "
                + pick(random, VERBS) + capitalised(pick(random, NOUNS)) + "Test fails with `expected:<" + random.nextInt(1000)
                + "> but was:<" + random.nextInt(1000) + ">`. Read " + file + ", find why the " + pick(random, NOUNS)
                + " is not " + pick(random, VERBS) + "ed when the " + pick(random, NOUNS) + " is full, and fix it"
                + "."));
        ObjectNode call = JSON.objectNode().put("role", "assistant");
        call.putNull("content");
        call.putArray("tool_calls").add(JSON.objectNode().put("id", callId).put("type", "function")
                .set("function", JSON.objectNode().put("name", "read_file")
                        .put("arguments", "{\"path\":\"" + file + "\",\"start_line\":1,\"end_line\":200}")));
        messages.add(call);
        messages.add(JSON.objectNode().put("role", "tool").put("tool_call_id", callId)
                .put("content", sourceFile(random, turn, 3)));
        messages.add(JSON.objectNode().put("role", "assistant").put("content", "The " + pick(random, NOUNS)
                + " is read before the lock is taken, so a concurrent " + pick(random, VERBS) + " sees a stale value."
                + " The fix:\n\n```java\n" + method(random, turn) + "```\n\n"
                + "I ran `./mvnw -q -pl core test`: " + (40 + random.nextInt(200)) + " tests, 0 failures."));
    }

    private static String sourceFile(Random random, int turn, int methods) {
        StringBuilder source = new StringBuilder("package io.example;\n\nimport java.time.Duration;\n"
                + "import java.util.List;\nimport java.util.Objects;\n\n/** The " + pick(random, NOUNS) + " of turn "
                + turn + ". Thread-safe. */\npublic final class " + capitalised(pick(random, NOUNS)) + turn + " {\n\n");
        for (int i = 0; i < methods; i++) {
            source.append("    private volatile ").append(pick(random, TYPES)).append(' ')
                    .append(pick(random, NOUNS)).append(i).append(";\n");
        }
        source.append('\n');
        for (int i = 0; i < methods; i++) {
            source.append(method(random, turn * 10 + i));
        }
        return source.append("}\n").toString();
    }

    private static String method(Random random, int index) {
        String noun = pick(random, NOUNS);
        String verb = pick(random, VERBS);
        String type = pick(random, TYPES);
        return "    /** " + capitalised(verb) + "s the " + noun + " at most " + (1 + random.nextInt(64)) + " times. */\n"
                + "    public " + type + " " + verb + capitalised(noun) + index + "(" + type + " " + noun
                + ", long nowNanos) {\n"
                + "        Objects.requireNonNull(" + noun + ", \"" + noun + "\");\n"
                + "        if (nowNanos - last" + capitalised(noun) + "Nanos > Duration.ofMillis(" + random.nextInt(5000)
                + ").toNanos()) {\n"
                + "            throw new IllegalStateException(\"" + noun + " must be " + verb + "ed first, but was \" + "
                + noun + ");\n"
                + "        }\n"
                + "        return " + noun + ";\n"
                + "    }\n\n";
    }

    private static ArrayNode tools() {
        ArrayNode tools = JSON.arrayNode();
        tools.add(tool("read_file", "Read a file of the workspace, optionally a range of its lines.",
                Map.of("path", "string", "start_line", "integer", "end_line", "integer"), "path"));
        tools.add(tool("write_file", "Replace a file of the workspace with new content; creates folders as needed.",
                Map.of("path", "string", "content", "string"), "path", "content"));
        tools.add(tool("run_command", "Run a shell command in the workspace and return its exit code and output.",
                Map.of("command", "string", "timeout_seconds", "integer"), "command"));
        tools.add(tool("search_code", "Search the workspace for a regular expression; returns matching lines.",
                Map.of("pattern", "string", "glob", "string", "max_results", "integer"), "pattern"));
        return tools;
    }

    private static ObjectNode tool(String name, String description, Map<String, String> parameters, String... required) {
        ObjectNode properties = JSON.objectNode();
        parameters.keySet().stream().sorted().forEach(parameter -> properties.set(parameter, JSON.objectNode()
                .put("type", parameters.get(parameter)).put("description", "The " + parameter.replace('_', ' ') + ".")));
        ObjectNode schema = JSON.objectNode().put("type", "object");
        schema.set("properties", properties);
        ArrayNode requiredNames = schema.putArray("required");
        for (String each : required) {
            requiredNames.add(each);
        }
        return JSON.objectNode().put("type", "function").set("function", JSON.objectNode()
                .put("name", name).put("description", description).set("parameters", schema));
    }

    private static String systemPrompt() {
        return ("You are a careful coding agent working in a Java 17 repository. Read before you write; keep changes"
                + " small; run the tests after every change and report what they said. Never invent file contents:"
                + " read them with read_file. Prefer search_code to guessing where something lives. Answer with the"
                + " reason first, then the code. ").repeat(2);
    }

    private static String pick(Random random, String[] words) {
        return words[random.nextInt(words.length)];
    }

    private static String capitalised(String word) {
        return Character.toUpperCase(word.charAt(0)) + word.substring(1);
    }

    /** The body's size in bytes of UTF-8, for reports. */
    public static int sizeOf(ObjectNode body) {
        return body.toString().getBytes(StandardCharsets.UTF_8).length;
    }
}
