/**
 * The posts the forms' traps turned away in the last 30 days (ADR 036),
 * newest first, each with why and when, a page at a time (the page in the
 * address, as the other lists keep it). An editor releases one a person
 * sent (it is stored and mailed as if it had just arrived) or deletes it; a
 * viewer reads the same list without the buttons.
 */

import { useEffect, useRef } from "react";
import { Link, useSearchParams } from "react-router";
import { SOURCE_TEXTS, sourceSummary } from "../../../shared/admin/lead-source.ts";
import { hasRole } from "../../../shared/admin/roles.ts";
import {
  FORM_LABELS,
  fieldLabel,
  reasonText,
  TURNED_AWAY_TEXTS,
  type TurnedAwayPost,
  turnedAwayListQuerySchema,
} from "../../../shared/admin/turned-away.ts";
import { api, read } from "../../api/client.ts";
import { useResource } from "../../api/use-resource.ts";
import { useMe } from "../../auth/session.tsx";
import { Notice } from "../../components/Notice.tsx";
import { Pager } from "../../components/Pager.tsx";
import { INBOX_ROUTE } from "./format.ts";
import { Moment } from "./Moment.tsx";
import { useOutcome } from "./use-outcome.tsx";

export function TurnedAwayScreen() {
  const { role } = useMe();
  const handles = hasRole(role, "editor");
  const [params] = useSearchParams();
  // A page number the server could not use reads as the first page, there and here alike.
  const { page } = turnedAwayListQuerySchema.parse(Object.fromEntries(params));
  const list = useResource(read("turnedAway.list", { query: { page } }));
  const { attempt, notice } = useOutcome();
  const heading = useRef<HTMLHeadingElement>(null);

  // The post acted on leaves the list, and the focus its button had with it: the heading takes it.
  useEffect(() => {
    if (notice) heading.current?.focus();
  }, [notice]);

  async function act(change: () => Promise<string>) {
    await attempt(change, (text) => text);
    list.reload();
  }
  const release = (post: TurnedAwayPost) =>
    act(async () => (await api.call("turnedAway.release", { params: { id: post.id } })).message);
  const remove = (post: TurnedAwayPost) =>
    act(async () => {
      await api.call("turnedAway.delete", { params: { id: post.id } });
      return TURNED_AWAY_TEXTS.deleted;
    });

  return (
    <>
      <p className="inquiry-back">
        <Link to={INBOX_ROUTE}>
          <span aria-hidden="true">← </span>All inquiries
        </Link>
      </p>
      <div className="screen-head">
        <div>
          <h1 ref={heading} tabIndex={-1}>
            Turned away
          </h1>
          <p className="inbox-glance">
            {list.data ? `${postCount(list.data.total)} the forms took` : "Posts the forms took"}{" "}
            for automated ones
            {list.data ? ` in the last ${list.data.days} days` : ""}. Their senders were told they
            got through.
            {handles ? " Release one a person sent: it arrives as if it had just been sent." : ""}
          </p>
        </div>
      </div>
      {notice}
      {list.error ? <Notice tone="error">{list.error}</Notice> : null}
      {list.data ? (
        <>
          {list.data.posts.length ? (
            <ul className="turned-away-list" aria-busy={list.loading}>
              {list.data.posts.map((post) => (
                <li key={post.id}>
                  <PostView
                    post={post}
                    actions={
                      handles ? { release: () => release(post), remove: () => remove(post) } : null
                    }
                  />
                </li>
              ))}
            </ul>
          ) : (
            <p className="inbox-none">
              {page > 1
                ? "There is nothing on this page."
                : "Nothing was turned away in this time."}
            </p>
          )}
          <Pager
            label="Pages of turned-away posts"
            page={list.data.page}
            pageSize={list.data.pageSize}
            total={list.data.total}
          />
        </>
      ) : list.loading ? (
        <p className="loading" role="status">
          Loading the turned-away posts…
        </p>
      ) : null}
    </>
  );
}

const postCount = (n: number) => `${n.toLocaleString("en")} ${n === 1 ? "post" : "posts"}`;

interface PostActions {
  release(): void;
  remove(): void;
}

function PostView({ post, actions }: { post: TurnedAwayPost; actions: PostActions | null }) {
  const titleId = `turned-away-${post.id}`;
  return (
    <article className="panel turned-away-post" aria-labelledby={titleId}>
      <h2 id={titleId}>
        {FORM_LABELS[post.form]} · <Moment iso={post.receivedAt} />
      </h2>
      <p className="turned-away-reason">{reasonText(post.reason, post.seconds)}</p>
      <dl className="inquiry-fields">
        {Object.entries(post.fields).map(([name, value]) => (
          <div key={name}>
            <dt>{fieldLabel(name)}</dt>
            <dd>{value || "Not given"}</dd>
          </div>
        ))}
        {post.source ? (
          <div>
            <dt>{SOURCE_TEXTS.heading}</dt>
            <dd>{sourceSummary(post.source)}</dd>
          </div>
        ) : null}
      </dl>
      {actions ? (
        <div className="turned-away-actions">
          <button type="button" className="button button-primary" onClick={actions.release}>
            Release<span className="visually-hidden"> this {post.form}</span>
          </button>
          <button type="button" className="button" onClick={actions.remove}>
            Delete<span className="visually-hidden"> this {post.form}</span>
          </button>
        </div>
      ) : null}
    </article>
  );
}
