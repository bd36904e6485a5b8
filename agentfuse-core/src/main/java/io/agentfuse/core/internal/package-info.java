/**
 * What core's packages share but do not offer: argument checks, the arithmetic of deadlines and
 * share budgets, blocking calls run as futures, the disposal of lost answers. Not API.
 */
package io.agentfuse.core.internal;
