extension PostgresSchema {
    /// Migration 3: `statesync_write_group`, the body of a group commit's
    /// transaction as one function, so a group costs three round trips
    /// (`BEGIN`, the call, `COMMIT`) whatever it holds, and the store row's
    /// lock is held from the compare-and-set to `COMMIT` for one round trip
    /// instead of one per statement. ``PostgresGroupWrite`` calls it and
    /// documents its parameters.
    ///
    /// What it does, in order (see ``PostgresBatchWriter`` for why this
    /// order is correct):
    /// 1. When the group has entries: the compare-and-set of the head
    ///    (`-1` and nothing written when the head is not at `p_seen`), the
    ///    group's one `NOTIFY`, the journal rows, and, with a `p_node`, the
    ///    presence rows of its sessions' joins and leaves (``PresenceRows``).
    /// 2. The outcomes, segment by segment (``OutcomeSegments``): a
    ///    segment's forgotten clientIds lose theirs, its accepted pairs and
    ///    rejections are inserted (`ON CONFLICT DO NOTHING`), then its
    ///    trimmed clientIds keep their newest.
    /// 3. It returns how many pairs already had an outcome (decided by
    ///    another node): the caller rolls back when that is not 0.
    ///
    /// This text is migration 3 and is never edited: a later change to the
    /// function is a new migration (`CREATE OR REPLACE FUNCTION`).
    static let writeGroupFunction = """
        CREATE FUNCTION statesync_write_group(
            p_store text, p_seen bigint, p_head bigint, p_notify_channel text, p_notify_payload text,
            j_revision bigint[], j_time bigint[], j_has_client boolean[], j_client text[],
            j_has_action boolean[], j_action_id text[], j_action bytea[],
            p_node text, p_joined_session text[], p_joined_name text[], p_left_session text[],
            s_forgotten_end integer[], s_accepted_end integer[], s_rejected_end integer[], s_trim_end integer[],
            f_client text[],
            a_client text[], a_action text[], a_revision bigint[],
            r_client text[], r_action text[], r_code text[], r_message text[],
            t_client text[], t_keep integer[]
        ) RETURNS integer LANGUAGE plpgsql AS $function$
        DECLARE
            decided_elsewhere integer := 0;
            inserted integer;
            f_from integer := 1;
            a_from integer := 1;
            r_from integer := 1;
            t_from integer := 1;
            segment integer;
            trim_index integer;
        BEGIN
            IF cardinality(j_revision) > 0 THEN
                UPDATE statesync_stores SET head_revision = p_head
                 WHERE store_id = p_store AND head_revision = p_seen;
                IF NOT FOUND THEN
                    RETURN -1;
                END IF;
                PERFORM pg_notify(p_notify_channel, p_notify_payload);
                INSERT INTO statesync_journal (store_id, revision, time_bits, client_id, action_id, action)
                SELECT p_store, r, tb, CASE WHEN hc THEN c END, CASE WHEN ha THEN a END, x
                  FROM unnest(j_revision, j_time, j_has_client, j_client, j_has_action, j_action_id, j_action)
                    AS u(r, tb, hc, c, ha, a, x);
                IF p_node IS NOT NULL THEN
                    INSERT INTO statesync_presence (store_id, session_id, node_id, name)
                    SELECT p_store, sid, p_node, n FROM unnest(p_joined_session, p_joined_name) AS u(sid, n)
                    ON CONFLICT (store_id, session_id)
                    DO UPDATE SET node_id = EXCLUDED.node_id, name = EXCLUDED.name, adopted_at = NULL;
                    DELETE FROM statesync_presence WHERE store_id = p_store AND session_id = ANY(p_left_session);
                END IF;
            END IF;
            FOR segment IN 1 .. cardinality(s_forgotten_end) LOOP
                IF s_forgotten_end[segment] >= f_from THEN
                    DELETE FROM statesync_outcomes
                     WHERE store_id = p_store AND client_id = ANY(f_client[f_from:s_forgotten_end[segment]]);
                    f_from := s_forgotten_end[segment] + 1;
                END IF;
                IF s_accepted_end[segment] >= a_from THEN
                    INSERT INTO statesync_outcomes (store_id, client_id, action_id, revision)
                    SELECT p_store, c, a, r
                      FROM unnest(a_client[a_from:s_accepted_end[segment]], a_action[a_from:s_accepted_end[segment]],
                                  a_revision[a_from:s_accepted_end[segment]]) AS u(c, a, r)
                    ON CONFLICT DO NOTHING;
                    GET DIAGNOSTICS inserted = ROW_COUNT;
                    decided_elsewhere := decided_elsewhere + (s_accepted_end[segment] - a_from + 1) - inserted;
                    a_from := s_accepted_end[segment] + 1;
                END IF;
                IF s_rejected_end[segment] >= r_from THEN
                    INSERT INTO statesync_outcomes (store_id, client_id, action_id, code, message)
                    SELECT p_store, c, a, k, m
                      FROM unnest(r_client[r_from:s_rejected_end[segment]], r_action[r_from:s_rejected_end[segment]],
                                  r_code[r_from:s_rejected_end[segment]], r_message[r_from:s_rejected_end[segment]])
                        AS u(c, a, k, m)
                    ON CONFLICT DO NOTHING;
                    GET DIAGNOSTICS inserted = ROW_COUNT;
                    decided_elsewhere := decided_elsewhere + (s_rejected_end[segment] - r_from + 1) - inserted;
                    r_from := s_rejected_end[segment] + 1;
                END IF;
                FOR trim_index IN t_from .. s_trim_end[segment] LOOP
                    DELETE FROM statesync_outcomes
                     WHERE store_id = p_store AND client_id = t_client[trim_index] AND seq <=
                        (SELECT seq FROM statesync_outcomes WHERE store_id = p_store AND client_id = t_client[trim_index]
                          ORDER BY seq DESC LIMIT 1 OFFSET greatest(1, t_keep[trim_index]));
                END LOOP;
                t_from := s_trim_end[segment] + 1;
            END LOOP;
            RETURN decided_elsewhere;
        END
        $function$
        """
}
