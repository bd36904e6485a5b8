package io.agentfuse.gateway.gemini;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class PathModelBodyTest {

    @Test
    void givenABodyWhenThePathsModelIsAddedThenItComesLastAndWinsOverTheCallers() {
        Buffer body = PathModelBody.of(Buffer.buffer("{\"model\":\"other\",\"contents\":[]}\n"), "gpt-4o-mini", true);

        assertThat(body.toString()).isEqualTo("{\"model\":\"other\",\"contents\":[],\"model\":\"gpt-4o-mini\",\"stream\":true}");
        assertThat(new JsonObject(body).getString("model")).isEqualTo("gpt-4o-mini");
    }

    @Test
    void givenAnEmptyObjectWhenThePathsModelIsAddedThenNoCommaLeadsIt() {
        assertThat(PathModelBody.of(Buffer.buffer(" { } "), "m\"x", false).toString())
                .isEqualTo(" { \"model\":\"m\\\"x\",\"stream\":false}");
    }

    @Test
    void givenABodyThatIsNoObjectWhenThePathsModelIsAddedThenItIsLeftForTheParserToRefuse() {
        assertThat(PathModelBody.of(Buffer.buffer("[1,2]"), "m", false).toString()).isEqualTo("[1,2]");
        assertThat(PathModelBody.of(Buffer.buffer(""), "m", false).length()).isZero();
    }
}
