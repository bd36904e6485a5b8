package io.agentfuse.gateway.provider.bedrock;

import io.agentfuse.gateway.dialect.ContentPart;
import io.agentfuse.gateway.dialect.UntranslatableException;
import io.agentfuse.gateway.provider.InlineData;
import io.vertx.core.json.JsonObject;

import java.util.Locale;
import java.util.Map;

/**
 * A document of the neutral model as a Converse {@code document} block: its {@code format} from its
 * media type, its bytes, and a {@code name}, which Converse requires and restricts to letters,
 * digits, single spaces, hyphens, parentheses and square brackets (the name counts as part of the
 * prompt: a title is kept as far as it fits the rule, a document without one is named by its data).
 * Stateless and thread-safe.
 */
final class BedrockDocuments {

    private static final Map<String, String> FORMATS = Map.of(
            "application/pdf", "pdf",
            "text/plain", "txt",
            "text/markdown", "md",
            "text/html", "html",
            "text/csv", "csv",
            "application/msword", "doc",
            "application/vnd.openxmlformats-officedocument.wordprocessingml.document", "docx",
            "application/vnd.ms-excel", "xls",
            "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", "xlsx");
    /** Bedrock's longest document name. */
    private static final int MAX_NAME = 200;

    private BedrockDocuments() {
    }

    /**
     * The inside of a {@code document} block for {@code document}.
     *
     * @throws UntranslatableException when it is a document by URL or of a format Converse does not read
     */
    static JsonObject document(ContentPart.Document document) {
        InlineData data = InlineData.of(document.url());
        if (data == null) {
            throw new UntranslatableException("a document by URL (Bedrock takes documents as bytes)");
        }
        String format = FORMATS.get(data.mediaType().toLowerCase(Locale.ROOT));
        if (format == null) {
            throw new UntranslatableException("a document of type " + data.mediaType() + " (Bedrock reads pdf, csv, doc, "
                    + "docx, xls, xlsx, html, txt and md)");
        }
        return new JsonObject().put("format", format).put("name", name(document.title(), data.base64()))
                .put("source", new JsonObject().put("bytes", data.base64()));
    }

    /** {@code title} as far as Converse's rule for names lets it through; else a name drawn from the data. */
    static String name(String title, String base64) {
        StringBuilder name = new StringBuilder();
        if (title != null) {
            for (int i = 0; i < title.length() && name.length() < MAX_NAME; i++) {
                char c = title.charAt(i);
                boolean kept = Character.isLetterOrDigit(c) && c < 128 || c == '-' || c == '(' || c == ')' || c == '[' || c == ']';
                if (kept) {
                    name.append(c);
                } else if (name.length() > 0 && name.charAt(name.length() - 1) != ' ') {
                    name.append(' ');
                }
            }
        }
        String kept = name.toString().strip();
        return kept.isEmpty() ? "document-" + Integer.toHexString(base64.hashCode()) : kept;
    }
}
