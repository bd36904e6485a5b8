package io.agentfuse.gateway.dialect;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Inline media held in the form it came in, and given in the other form only when asked. */
class MediaSourceTest {

    @Test
    void aDataUrlAndTheSameDataApartAreTheSameMediaAndGiveEachOthersForm() {
        String url = "data:image/png;base64,iVBORw0KGgo=";
        MediaSource.Inline within = (MediaSource.Inline) MediaSource.of(url);
        MediaSource.Inline apart = MediaSource.Inline.of("image/png", "iVBORw0KGgo=");

        assertThat(within).isEqualTo(apart).hasSameHashCodeAs(apart);
        assertThat(within.url()).isSameAs(url);
        assertThat(apart.url()).isEqualTo(url);
        assertThat(within.base64()).isEqualTo(apart.base64()).isEqualTo("iVBORw0KGgo=");
        assertThat(within.base64Chars().toString()).isEqualTo("iVBORw0KGgo=");
        assertThat(within.base64Length()).isEqualTo(apart.base64Length()).isEqualTo(12);
        assertThat(within.mediaType()).isEqualTo("image/png");
        assertThat(new ContentPart.Image(url)).isEqualTo(new ContentPart.Image(apart));
        assertThat(apart).isNotEqualTo(MediaSource.Inline.of("image/jpeg", "iVBORw0KGgo="))
                .isNotEqualTo(MediaSource.Inline.of("image/png", "iVBORw0KGgp="));
    }

    @Test
    void anAddressIsMediaByUrlAndADataUrlThatIsNotBase64GoesToNoWireThatTakesBase64() {
        MediaSource address = MediaSource.of("https://example.com/cat.png");
        MediaSource text = MediaSource.of("data:text/plain,hello");

        assertThat(address).isEqualTo(new MediaSource.Url("https://example.com/cat.png"));
        assertThat(address.isData()).isFalse();
        assertThat(address.inline()).isNull();
        assertThat(text.isData()).isTrue();
        assertThat(text.url()).isEqualTo("data:text/plain,hello");
        assertThatThrownBy(text::inline).isInstanceOf(UntranslatableException.class).hasMessageContaining("not base64");
    }

    @Test
    void aDocumentsMediaTypeIsItsDatasAndOneByAddressIsAPdf() {
        assertThat(new ContentPart.Document(MediaSource.Inline.of("text/csv", "YSxi"), null).mediaType()).isEqualTo("text/csv");
        assertThat(new ContentPart.Document("https://example.com/spec", null).mediaType()).isEqualTo("application/pdf");
        assertThat(new ContentPart.Document("data:text/plain;charset=utf-8,hi", null).mediaType()).isEqualTo("text/plain");
    }

    @Test
    void showsTheLengthOfItsDataNotTheData() {
        assertThat(MediaSource.Inline.of("image/png", "A".repeat(4_800_000)).toString())
                .isEqualTo("Inline[image/png, 4800000 chars of base64]");
    }
}
