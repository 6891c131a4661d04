import { render } from "preact";
import { App } from "./App";
import { interceptLinks } from "./router";
import "./styles.css";

interceptLinks();
render(<App />, document.getElementById("app")!);
