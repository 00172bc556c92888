-- The feedback table, as SQLite has it (service/feedback.py), with PostgreSQL's types.
CREATE TABLE feedback (
    id BIGSERIAL PRIMARY KEY,
    received_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    question TEXT NOT NULL,
    rating TEXT NOT NULL CHECK (rating IN ('up', 'down')),
    chunk_ids JSONB NOT NULL,
    answer TEXT,
    index_build TEXT NOT NULL,
    client TEXT
);
CREATE INDEX feedback_received_at ON feedback (received_at);
