/**
 * Readers of HTTP answers out of the exceptions of the clients Spring AI is built on (Spring's
 * {@code RestClient} and {@code WebClient}, the OpenAI SDK, Spring AI's retry exceptions). Each
 * reader touches one optional library and is called only when that library is present.
 */
package io.agentfuse.springai.internal;
