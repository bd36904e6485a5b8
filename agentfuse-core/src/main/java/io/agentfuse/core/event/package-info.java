/**
 * Listener types and the events they receive: breaker transitions, rejections and recorded
 * calls, retry schedules. Listeners cost nothing when none are registered.
 */
package io.agentfuse.core.event;
