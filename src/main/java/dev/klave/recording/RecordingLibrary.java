package dev.klave.recording;

import static java.util.Objects.requireNonNull;

import dev.klave.account.Principal;
import dev.klave.audit.ControlEvents;
import dev.klave.audit.EventType;
import dev.klave.messages.Message;
import dev.klave.storage.Transactions;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The recordings as people read them (issue 42): an administrator every one, a person their own —
 * listed, searched in what they printed, played (each download a {@code recording.view} event) —
 * and an administrator's delete (issue 51), whose room in the quota is free at once.
 */
public final class RecordingLibrary {
    /** The most rows one listing or search answers. */
    public static final int LISTED = 100;

    private final RecordingStore store;
    private final ControlEvents events;
    private final Transactions transactions;
    private final RecordingQuota quota;

    RecordingLibrary(RecordingStore store, ControlEvents events, Transactions transactions, RecordingQuota quota) {
        this.store = requireNonNull(store, "store is null");
        this.events = requireNonNull(events, "events is null");
        this.transactions = requireNonNull(transactions, "transactions is null");
        this.quota = requireNonNull(quota, "quota is null");
    }

    /**
     * Lines of the caller's visible sessions that contain the visible part of {@code text}, 2 to
     * 200 characters ({@link SearchText}): what no one sees is not searched for.
     */
    public List<RecordingStore.Found> search(Principal caller, String text) {
        SearchText wanted = SearchText.parse(text)
                .orElseThrow(() -> Message.RECORDING_SEARCH_TEXT.refusal(SearchText.MAX));
        return store.search(caller.admin() ? Optional.empty() : Optional.of(caller.subjectId()), wanted, LISTED);
    }

    /** Recordings the caller may see: an administrator's, every one; a person's, their own. */
    public List<Recording> list(Principal caller) {
        return store.list(caller.admin() ? Optional.empty() : Optional.of(caller.subjectId()), LISTED);
    }

    /** As {@link #list(Principal)}, kept by {@code filter}; a person's subject filter is always themselves. */
    public List<Recording> list(Principal caller, RecordingStore.Filter filter) {
        RecordingStore.Filter own = caller.admin() ? filter : new RecordingStore.Filter(
                Optional.of(caller.subjectId()), filter.cluster(), filter.namespace(), filter.pod(), filter.from(),
                filter.to());
        return store.list(own, LISTED);
    }

    public Recording find(String id, Principal caller) {
        return store.findById(id)
                .filter(recording -> caller.admin() || recording.owner().subject().equals(caller.subjectId()))
                .orElseThrow(Message.NOT_FOUND::refusal);
    }

    /**
     * Deletes a finished recording with its chunks and lines, an administrator's act (a
     * {@code recording.delete} event in the same transaction); what it took is free at once.
     *
     * @throws dev.klave.messages.Refusal 404 for no such recording, 409 while its session runs
     */
    public void delete(String id, Principal by) {
        Recording recording = store.findById(id).orElseThrow(Message.NOT_FOUND::refusal);
        if (recording.progress().state() == Recording.State.RECORDING) {
            throw Message.RECORDING_RUNNING.refusal();
        }
        boolean deleted = transactions.inTransaction(() -> {
            if (!store.delete(id)) {
                return false;
            }
            events.event(EventType.RECORDING_DELETE).actor(by)
                    .details(Map.of("recording", id, "cluster", recording.target().cluster().value(), "pod",
                            recording.target().pod(), "subject", recording.owner().login(), "bytes",
                            String.valueOf(recording.progress().bytes())))
                    .record();
            return true;
        });
        if (!deleted) {
            throw Message.NOT_FOUND.refusal();
        }
        quota.free(recording.owner().subject(), recording.progress().bytes());
    }

    /** The whole asciicast: the header (with the last size seen), then every event. Watching it is an event. */
    public String cast(String id, Principal caller) {
        Recording recording = find(id, caller);
        StringBuilder cast = new StringBuilder(Cast.header(recording));
        store.chunks(id).forEach(cast::append);
        events.event(EventType.RECORDING_VIEW).actor(caller)
                .details(Map.of("recording", id, "cluster", recording.target().cluster().value(), "pod",
                        recording.target().pod(), "subject", recording.owner().login()))
                .record();
        return cast.toString();
    }
}
