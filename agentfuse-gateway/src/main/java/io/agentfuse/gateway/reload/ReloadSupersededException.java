package io.agentfuse.gateway.reload;

/**
 * Why a reload changed nothing: a reload that started after it was decided first (put in force
 * or refused), so what this one read may be older than what is in force. Answered 409
 * {@code reload_superseded} by {@code POST /admin/reload}; not counted as a failed reload.
 */
public final class ReloadSupersededException extends IllegalStateException {

    ReloadSupersededException() {
        super("a reload that started later was decided first; this one changed nothing");
    }
}
