/** What core's packages share but do not offer: argument checks. Not API. */
package io.agentfuse.core.internal;
