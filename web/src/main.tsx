import { render } from "preact";

render(<p>loading</p>, document.getElementById("app")!);
