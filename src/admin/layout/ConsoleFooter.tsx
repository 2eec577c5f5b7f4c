/**
 * The release the server runs, at the foot of every signed-in screen: what
 * someone reporting a fault is asked first. Nothing shows until the server
 * has said.
 */
import { useEffect, useState } from "react";
import { api } from "../api/client.ts";

export function ConsoleFooter() {
  const [version, setVersion] = useState<string | null>(null);
  useEffect(() => {
    let current = true;
    api
      .call("version.read")
      .then((answer) => {
        if (current) setVersion(answer.version);
      })
      .catch(() => {});
    return () => {
      current = false;
    };
  }, []);
  return <footer className="shell-footer">{version ? `Version ${version}` : null}</footer>;
}
