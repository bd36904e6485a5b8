package io.agentfuse.gateway.provider;

import io.agentfuse.gateway.dialect.FieldReader;
import io.agentfuse.gateway.dialect.InvalidRequestException;
import io.agentfuse.gateway.dialect.MediaSource;

import java.util.List;

/**
 * The parsers' rules for the inline images and documents of a caller's request, one for every
 * dialect, each read into a {@link MediaSource} of the neutral model (for
 * {@link io.agentfuse.gateway.dialect.ContentPart.Image}, {@link io.agentfuse.gateway.dialect.ContentPart.Document}),
 * checked, so that what crosses to another dialect is well formed, and held as it came: the media
 * type and base64 apart where the caller sent them apart (Anthropic's {@code base64} sources, Gemini's
 * {@code inlineData}), the data URL where it sent one (OpenAI's). Nothing is copied unless white
 * space has to be taken out.
 *
 * <p>The rules: a data URL needs a comma before its data and some data, and base64 data given apart
 * from its media type (Anthropic, Gemini) a media type of the form {@code type/subtype} (no
 * parameters, no commas: it is written into a data URL and into other dialects' media type fields),
 * else 400 {@code invalid_request} naming the field; white space in base64 data (a MIME encoder's
 * line breaks) is left out; a data URL that is not base64, or whose media type is not of that form,
 * is kept and named as untranslatable (only its own dialect may take it).
 *
 * <p>Stateless. {@code InlineData.of(source, "media_type", "data")} is the {@code image/png} and
 * {@code iVBOR} of {@code {"type":"base64","media_type":"image/png","data":"iVBOR"}}.
 */
public final class InlineData {

    private static final String BASE64 = ";base64";

    private InlineData() {
    }

    /**
     * The media of the media type in {@code typeField} and the base64 data in {@code dataField} of
     * {@code source} (an Anthropic {@code base64} source, a Gemini {@code inlineData}), held apart.
     *
     * @throws InvalidRequestException naming the field that is missing, empty or malformed
     */
    public static MediaSource.Inline of(FieldReader source, String typeField, String dataField) {
        String mediaType = mediaType(source, typeField);
        String data = source.requiredString(dataField);
        return MediaSource.Inline.of(mediaType, compact(source, dataField, data, 0));
    }

    /**
     * The media at the URL in {@code field} of {@code part} (an image's or a file's), a data URL checked:
     * held within it when well formed, its base64 without white space; one that is not base64 named in
     * {@code untranslatable}.
     *
     * @throws InvalidRequestException when it is a data URL without a comma or without data
     */
    public static MediaSource url(FieldReader part, String field, List<String> untranslatable) {
        String url = part.requiredString(field);
        if (!url.startsWith(MediaSource.DATA)) {
            return new MediaSource.Url(url);
        }
        int comma = url.indexOf(',');
        if (comma < 0) {
            throw part.problem(field, "is a data URL without a comma before its data");
        }
        String header = url.substring(MediaSource.DATA.length(), comma);
        if (!header.endsWith(BASE64) || !isMediaType(header.substring(0, header.length() - BASE64.length()))) {
            untranslatable.add(part.path(field) + " (a data URL that is not base64 of a type/subtype media type)");
            return MediaSource.of(url);
        }
        return MediaSource.of(compact(part, field, url, comma + 1));
    }

    /**
     * The media of OpenAI's {@code file_data} in {@code field} of {@code file} (Chat Completions'
     * {@code file} parts, the Responses API's {@code input_file}): a data URL, or the bare base64 of a PDF.
     *
     * @throws InvalidRequestException as {@link #url}
     */
    public static MediaSource fileData(FieldReader file, String field, List<String> untranslatable) {
        String data = file.requiredString(field);
        return data.startsWith(MediaSource.DATA) ? url(file, field, untranslatable)
                : MediaSource.Inline.of("application/pdf", compact(file, field, data, 0));
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

    /**
     * {@code text}, whose base64 data starts at {@code from}, with the data's white space left out
     * (a copy only then); {@code text} itself when it has none. Refused when no data is left.
     */
    private static String compact(FieldReader reader, String field, String text, int from) {
        int first = from;
        while (first < text.length() && !isWhitespace(text.charAt(first))) {
            first++;
        }
        String compact = text;
        if (first < text.length()) { // rare (a MIME encoder's line breaks): only then is the data copied
            StringBuilder kept = new StringBuilder(text.length()).append(text, 0, first);
            for (int i = first; i < text.length(); i++) {
                char c = text.charAt(i);
                if (!isWhitespace(c)) {
                    kept.append(c);
                }
            }
            compact = kept.toString();
        }
        if (compact.length() == from) {
            throw reader.problem(field, "holds no data");
        }
        return compact;
    }

    private static boolean isWhitespace(char c) {
        return c == ' ' || c == '\n' || c == '\r' || c == '\t';
    }
}
