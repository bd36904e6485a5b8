package io.agentfuse.gateway.provider.bedrock;

import io.agentfuse.agent.tokens.ModelName;
import io.agentfuse.gateway.dialect.ContentPart;
import io.agentfuse.gateway.dialect.MediaSource;
import io.agentfuse.gateway.dialect.UntranslatableException;
import io.agentfuse.gateway.provider.ClaudeMediaCount;
import io.agentfuse.gateway.provider.MediaTokens;
import io.vertx.core.json.JsonObject;

import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The images and documents of one Converse request, as Converse takes them: bytes only (an image or
 * a document by URL is untranslatable), images in png, jpeg, gif or webp, documents in the formats it
 * reads, at most {@value #MAX_IMAGES} images and {@value #MAX_DOCUMENTS} documents in the request
 * (Converse refuses more: the step is skipped for a model that takes them), and each document under a
 * {@code name} of its own. Converse requires the name, restricts it to letters, digits, single spaces,
 * hyphens, parentheses and square brackets, and refuses a request in which two documents share one
 * ("Messages can't contain duplicate document names"): a title is kept as far as it fits the rule (the
 * name counts as part of the prompt), a document without one is named by its data, and a name taken
 * already gets a number, {@code "report (2)"}. A Claude model's images and document pages are also
 * held to Anthropic's limits ({@link ClaudeMediaCount}: Bedrock's Claude takes no PDF of more than 100
 * pages, and no more images and pages together than Anthropic's API takes from a model of its window).
 *
 * <p>One image or document larger than Converse takes is untranslatable too, so that the chain falls back
 * instead of ending on Bedrock's 400 ({@code "The maximum document size is 4.5 MB. Reduce the size of your
 * document and retry your request."}). The limits are the Converse API reference's (its {@code Message}):
 * an image of at most {@value #MAX_IMAGE_BYTES} bytes (3.75 MB) and {@value #MAX_IMAGE_SIDE} pixels a side,
 * a document of at most {@value #MAX_DOCUMENT_BYTES} bytes (4.5 MB), counted in MiB, the reading that
 * refuses least (3.75 MiB of image is Anthropic's 5 MiB of base64). The user guide exempts a PDF sent to
 * Claude 4 or later, and a PDF or DOCX sent to Amazon Nova, from the document's size: those go on, as
 * does an image whose size in pixels cannot be read from its head.
 *
 * <p>One instance per request written; not thread-safe.
 * {@code new BedrockMedia().document(new ContentPart.Document("data:application/pdf;base64,JVBER", "Q3 report.pdf"))}
 */
final class BedrockMedia {

    /** The most images Converse takes in one request. */
    static final int MAX_IMAGES = 20;
    /** The most documents Converse takes in one request. */
    static final int MAX_DOCUMENTS = 5;

    private static final Set<String> IMAGE_FORMATS = Set.of("png", "jpeg", "gif", "webp");
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
    /** The most bytes of one image. */
    static final int MAX_IMAGE_BYTES = 3_932_160;
    /** The most pixels a side of one image. */
    static final int MAX_IMAGE_SIDE = 8_000;
    /** The most bytes of one document, but for the formats a model is exempt for. */
    static final int MAX_DOCUMENT_BYTES = 4_718_592;
    /** Bedrock's longest document name. */
    private static final int MAX_NAME = 200;

    private int images;
    /** Anthropic's count, for a Claude model; {@code null} for another. */
    private final ClaudeMediaCount claude;
    /** The document formats the model takes of any size. */
    private final Set<String> anySize;
    /** The names given so far, in lower case: Bedrock's check is taken to ignore case, the safer reading. */
    private final Set<String> names = new HashSet<>();

    /** The media of a request to a model that is not Claude's. */
    BedrockMedia() {
        this(null, Set.of());
    }

    private BedrockMedia(ClaudeMediaCount claude, Set<String> anySize) {
        this.claude = claude;
        this.anySize = anySize;
    }

    /**
     * The media of a request to Bedrock's {@code model} (an id, an inference profile's id or ARN) of a
     * window of {@code contextWindow} tokens (0: not known, the smaller window's limit): a model whose
     * id names Anthropic's Claude also counts its images and pages as Anthropic does.
     */
    static BedrockMedia forModel(String model, long contextWindow) {
        if (!model.contains("anthropic.claude")) {
            return new BedrockMedia(null, model.contains("amazon.nova-") ? Set.of("pdf", "docx") : Set.of());
        }
        boolean fourOrLater = ModelName.of(model).claudeVersion() >= 400; // anthropic.claude-sonnet-4-5-..., an ARN's too
        return new BedrockMedia(new ClaudeMediaCount(contextWindow > 0 ? contextWindow : ClaudeMediaCount.SMALL_WINDOW),
                fourOrLater ? Set.of("pdf") : Set.of());
    }

    /**
     * The inside of an {@code image} block for the image of {@code source}.
     *
     * @throws UntranslatableException for an image by URL, of another format, larger than Converse takes (in
     *                                 bytes or pixels), or beyond the request's {@value #MAX_IMAGES}
     */
    JsonObject image(MediaSource source) {
        MediaSource.Inline data = source.inline();
        if (data == null) {
            throw new UntranslatableException("an image by URL (Bedrock takes images as bytes)");
        }
        String format = data.mediaType().startsWith("image/") ? data.mediaType().substring(6) : "";
        if (!IMAGE_FORMATS.contains(format)) {
            throw new UntranslatableException("an image that is not png, jpeg, gif or webp (" + data.mediaType() + ")");
        }
        long bytes = bytes(data);
        if (bytes > MAX_IMAGE_BYTES) {
            throw new UntranslatableException("an image of " + bytes + " bytes (Converse takes " + MAX_IMAGE_BYTES + ")");
        }
        int side = MediaTokens.longestSide(source);
        if (side > MAX_IMAGE_SIDE) {
            throw new UntranslatableException("an image of " + side + " pixels a side (Converse takes " + MAX_IMAGE_SIDE + ")");
        }
        if (++images > MAX_IMAGES) {
            throw new UntranslatableException("more than " + MAX_IMAGES + " images (Converse takes " + MAX_IMAGES
                    + " in a request)");
        }
        if (claude != null) {
            claude.image();
        }
        return new JsonObject().put("format", format).put("source", new JsonObject().put("bytes", data.base64()));
    }

    /**
     * The inside of a {@code document} block for {@code document}, under a name no other document of
     * the request has.
     *
     * @throws UntranslatableException for a document by URL, of a format Converse does not read, larger than
     *                                 {@value #MAX_DOCUMENT_BYTES} bytes (but for the model's exempt formats),
     *                                 or beyond the request's {@value #MAX_DOCUMENTS}
     */
    JsonObject document(ContentPart.Document document) {
        MediaSource.Inline data = document.source().inline();
        if (data == null) {
            throw new UntranslatableException("a document by URL (Bedrock takes documents as bytes)");
        }
        String format = FORMATS.get(data.mediaType().toLowerCase(Locale.ROOT));
        if (format == null) {
            throw new UntranslatableException("a document of type " + data.mediaType() + " (Bedrock reads pdf, csv, doc, "
                    + "docx, xls, xlsx, html, txt and md)");
        }
        long bytes = bytes(data);
        if (bytes > MAX_DOCUMENT_BYTES && !anySize.contains(format)) {
            throw new UntranslatableException("a document of " + bytes + " bytes (Converse takes " + MAX_DOCUMENT_BYTES
                    + " but for a PDF to Claude 4 or later, a PDF or DOCX to Nova)");
        }
        if (names.size() == MAX_DOCUMENTS) {
            throw new UntranslatableException("more than " + MAX_DOCUMENTS + " documents (Converse takes "
                    + MAX_DOCUMENTS + " in a request)");
        }
        if (claude != null) {
            claude.document(document.source());
        }
        String base64 = data.base64();
        return new JsonObject().put("format", format).put("name", unique(name(document.title(), base64)))
                .put("source", new JsonObject().put("bytes", base64));
    }

    /** The bytes the base64 of {@code data} decodes to. */
    private static long bytes(MediaSource.Inline data) {
        CharSequence base64 = data.base64Chars();
        int length = base64.length();
        int padding = 0;
        while (padding < 2 && length - padding > 0 && base64.charAt(length - 1 - padding) == '=') {
            padding++;
        }
        return (long) length / 4 * 3 + (length % 4 == 0 ? -padding : Math.max(0, length % 4 - 1));
    }

    /** {@code name}, or with the first number from 2 on that makes it one no document of the request has. */
    private String unique(String name) {
        String candidate = name;
        for (int n = 2; !names.add(candidate.toLowerCase(Locale.ROOT)); n++) {
            String suffix = " (" + n + ")";
            candidate = name.substring(0, Math.min(name.length(), MAX_NAME - suffix.length())).stripTrailing() + suffix;
        }
        return candidate;
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
