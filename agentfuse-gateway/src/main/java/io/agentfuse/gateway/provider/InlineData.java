package io.agentfuse.gateway.provider;

import io.agentfuse.gateway.dialect.FieldReader;
import io.agentfuse.gateway.dialect.InvalidRequestException;
import io.agentfuse.gateway.dialect.UntranslatableException;

import java.util.List;

/**
 * An inline image or document of the neutral model, a {@code data:<media type>;base64,<data>} URL
 * ({@link io.agentfuse.gateway.dialect.ContentPart.Image}, {@link io.agentfuse.gateway.dialect.ContentPart.Document}),
 * taken apart for the dialects that carry the media type and the bytes separately (Anthropic's
 * {@code base64} sources, Gemini's {@code inlineData}, Bedrock's {@code bytes}), and made from what a
 * caller sent, checked, so that what crosses to another dialect is well formed.
 *
 * <p>The parsers' rules, one for every dialect: a data URL needs a comma before its data and some data,
 * and base64 data given apart from its media type (Anthropic, Gemini) a media type of the form
 * {@code type/subtype} (no parameters, no commas: it is written into a data URL and into other
 * dialects' media type fields), else 400 {@code invalid_request} naming the field; white space in
 * base64 data (a MIME encoder's line breaks) is left out; a data URL that is not base64, or whose
 * media type is not of that form, is kept and named as untranslatable (only its own dialect may take it).
 *
 * <p>Immutable. {@code InlineData.of("data:image/png;base64,iVBOR")} is {@code image/png} and {@code iVBOR}.
 *
 * @param mediaType the media type ({@code image/png})
 * @param base64    the base64 data
 */
public record InlineData(String mediaType, String base64) {

    private static final String BASE64 = ";base64";

    /**
     * The parts of {@code url}, or {@code null} when it is not a {@code data:} URL (an image or document by address).
     *
     * @throws UntranslatableException when it is a {@code data:} URL that is not base64
     */
    public static InlineData of(String url) {
        if (!url.startsWith("data:")) {
            return null;
        }
        int comma = url.indexOf(',');
        String header = comma < 0 ? "" : url.substring(5, comma);
        if (!header.endsWith(BASE64)) {
            throw new UntranslatableException("a data URL that is not base64");
        }
        return new InlineData(header.substring(0, header.length() - BASE64.length()), url.substring(comma + 1));
    }

    /** The characters of base64 in {@code url}, a {@code data:} URL, without cutting them out; 0 for an address. */
    public static int base64Length(String url) {
        return url.startsWith("data:") ? url.length() - url.indexOf(',') - 1 : 0;
    }

    /**
     * The data URL of the media type in {@code typeField} and the base64 data in {@code dataField} of
     * {@code source} (an Anthropic {@code base64} source, a Gemini {@code inlineData}).
     *
     * @throws InvalidRequestException naming the field that is missing, empty or malformed
     */
    public static String dataUrl(FieldReader source, String typeField, String dataField) {
        String mediaType = mediaType(source, typeField);
        return "data:" + mediaType + BASE64 + "," + base64(source, dataField, source.requiredString(dataField));
    }

    /**
     * The URL in {@code field} of {@code part} (an image's or a file's), a data URL checked: kept when
     * well formed, its base64 without white space; one that is not base64 named in {@code untranslatable}.
     *
     * @throws InvalidRequestException when it is a data URL without a comma or without data
     */
    public static String url(FieldReader part, String field, List<String> untranslatable) {
        String url = part.requiredString(field);
        if (!url.startsWith("data:")) {
            return url;
        }
        int comma = url.indexOf(',');
        if (comma < 0) {
            throw part.problem(field, "is a data URL without a comma before its data");
        }
        String header = url.substring(5, comma);
        if (!header.endsWith(BASE64) || !isMediaType(header.substring(0, header.length() - BASE64.length()))) {
            untranslatable.add(part.path(field) + " (a data URL that is not base64 of a type/subtype media type)");
            return url;
        }
        String data = base64(part, field, url.substring(comma + 1));
        return data.length() == url.length() - comma - 1 ? url : url.substring(0, comma + 1) + data;
    }

    /**
     * The data URL of OpenAI's {@code file_data} in {@code field} of {@code file} (Chat Completions'
     * {@code file} parts, the Responses API's {@code input_file}): a data URL, or the bare base64 of a PDF.
     *
     * @throws InvalidRequestException as {@link #url}
     */
    public static String fileData(FieldReader file, String field, List<String> untranslatable) {
        String data = file.requiredString(field);
        return data.startsWith("data:") ? url(file, field, untranslatable)
                : "data:application/pdf" + BASE64 + "," + base64(file, field, data);
    }

    private static String mediaType(FieldReader source, String field) {
        String mediaType = source.requiredString(field);
        if (!isMediaType(mediaType)) {
            throw source.problem(field, "must be a media type of the form type/subtype, but was \"" + mediaType + "\"");
        }
        return mediaType;
    }

    /** Whether {@code mediaType} is of the form {@code type/subtype}, without parameters. */
    public static boolean isMediaType(String mediaType) {
        int slash = mediaType.indexOf('/');
        if (slash <= 0 || slash == mediaType.length() - 1 || mediaType.indexOf('/', slash + 1) >= 0) {
            return false;
        }
        for (int i = 0; i < mediaType.length(); i++) {
            char c = mediaType.charAt(i);
            if (c <= ' ' || c >= 127 || c == ',' || c == ';' || c == '"') {
                return false;
            }
        }
        return true;
    }

    /** {@code data} without white space; refused when nothing is left. */
    private static String base64(FieldReader reader, String field, String data) {
        int first = 0;
        while (first < data.length() && !isWhitespace(data.charAt(first))) {
            first++;
        }
        String compact = data;
        if (first < data.length()) { // rare (a MIME encoder's line breaks): only then is the data copied
            StringBuilder kept = new StringBuilder(data.length()).append(data, 0, first);
            for (int i = first; i < data.length(); i++) {
                char c = data.charAt(i);
                if (!isWhitespace(c)) {
                    kept.append(c);
                }
            }
            compact = kept.toString();
        }
        if (compact.isEmpty()) {
            throw reader.problem(field, "holds no data");
        }
        return compact;
    }

    private static boolean isWhitespace(char c) {
        return c == ' ' || c == '\n' || c == '\r' || c == '\t';
    }
}
