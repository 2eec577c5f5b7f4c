export { default } from "./home.tsx";
